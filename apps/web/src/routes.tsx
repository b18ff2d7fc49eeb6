import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { Route, Routes, useParams } from 'react-router';
import { Loading, Page } from './components/Page';
import { nextPath } from './lib/next';
import { Link, Redirect, useLocation } from './lib/router';
import { LoginPage } from './pages/LoginPage';
import { DataLayer } from './session/data';
import { useSession } from './session/SessionProvider';

/*
 * The app's addresses (React Router). Every one is also answered with index.html by the server
 * (apps/server/src/http/web.ts), so a shared link or a reload works.
 */

const loading = <Loading />;

let firstPage = true;

/**
 * After a navigation the new page's heading takes the focus (not on the first load). Inside each
 * page's Suspense, so that it runs once a page that loads with its first visit is there.
 */
function FocusHeading({ path }: { path: string }) {
  useEffect(() => {
    if (firstPage) {
      firstPage = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [path]);
  return null;
}

/**
 * A page of the app: "Carregando…" while its code arrives (and the data layer, for a page that
 * reads the API: all but the login), then its heading focused.
 */
function Screen({ children, data = true }: { children: ReactNode; data?: boolean }) {
  const { path } = useLocation();
  return (
    <Suspense fallback={loading}>
      {data ? <DataLayer>{children}</DataLayer> : children}
      <FocusHeading path={path} />
    </Suspense>
  );
}

function NotFound() {
  return (
    <Page title="Página não encontrada">
      <p>
        Esta página não existe. <Link to="/">Ir para o início</Link>
      </p>
    </Page>
  );
}

function Forbidden() {
  return (
    <Page title="Acesso restrito">
      <p role="alert">Esta área é só para administradores.</p>
    </Page>
  );
}

/**
 * A page that needs a session: a visitor goes to the login, which brings them back here; someone
 * who just logged out or deleted their account goes to the plain login page.
 */
function Authed({ admin = false, children }: { admin?: boolean; children: ReactNode }) {
  const { user, left } = useSession();
  const { href } = useLocation();
  if (!user) return <Redirect to={left ? '/entrar' : `/entrar?next=${encodeURIComponent(href)}`} />;
  if (admin && user.perfil !== 'ADMIN') return <Forbidden />;
  return children;
}

/** The login and sign-up pages: someone logged in goes on to where `?next=` points. */
function Anonymous({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const { query } = useLocation();
  return user ? <Redirect to={nextPath(query)} /> : children;
}

/**
 * Every page but the login loads with its first visit, so a first load on a phone fetches only
 * the shell and the login form (issue 17: initial JS). Registration also brings the state's
 * municipalities (~150 kB), as it checks the city with the API's own schema.
 */
const RegisterPage = lazy(() =>
  import('./pages/register/RegisterPage').then((m) => ({ default: m.RegisterPage })),
);
const FeedPage = lazy(() => import('./pages/feed/FeedPage').then((m) => ({ default: m.FeedPage })));
const PostPage = lazy(() => import('./pages/feed/PostPage').then((m) => ({ default: m.PostPage })));
const MatchesPage = lazy(() =>
  import('./pages/matches/MatchesPage').then((m) => ({ default: m.MatchesPage })),
);
const MatchPage = lazy(() =>
  import('./pages/matches/MatchPage').then((m) => ({ default: m.MatchPage })),
);
const GroupsPage = lazy(() =>
  import('./pages/groups/GroupsPage').then((m) => ({ default: m.GroupsPage })),
);
const GroupPage = lazy(() =>
  import('./pages/groups/GroupPage').then((m) => ({ default: m.GroupPage })),
);
const NotificationsPage = lazy(() =>
  import('./pages/notifications/NotificationsPage').then((m) => ({ default: m.NotificationsPage })),
);
const ReportsPage = lazy(() =>
  import('./pages/admin/ReportsPage').then((m) => ({ default: m.ReportsPage })),
);
const AdminPage = lazy(() =>
  import('./pages/admin/AdminPage').then((m) => ({ default: m.AdminPage })),
);
const AccountPage = lazy(() =>
  import('./pages/account/AccountPage').then((m) => ({ default: m.AccountPage })),
);
const TeacherRegisterPage = lazy(() =>
  import('./pages/account/TeacherRegisterPage').then((m) => ({ default: m.TeacherRegisterPage })),
);
const ForgotPasswordPage = lazy(() =>
  import('./pages/account/RecoveryPages').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('./pages/account/RecoveryPages').then((m) => ({ default: m.ResetPasswordPage })),
);

/** The `$id` of the current address (each page with one is keyed by it: a new id, a new page). */
const useRouteId = () => useParams().id ?? '';

function Home() {
  const { user } = useSession();
  return <Redirect to={user ? '/feed' : '/entrar'} />;
}

/** Each address's page (rendered in the shell's <main>, inside `Screen`). */
const anonymous = (page: ReactNode) => () => <Anonymous>{page}</Anonymous>;
const authed = (page: ReactNode) => () => <Authed>{page}</Authed>;
const admin = (page: ReactNode) => () => <Authed admin>{page}</Authed>;
/** A page of one post, match or group, keyed by its id: another id, a fresh page. */
const withId = (Page: ComponentType<{ id: string }>) =>
  function ById() {
    const id = useRouteId();
    return (
      <Authed>
        <Page key={id} id={id} />
      </Authed>
    );
  };

const pages: Record<string, ComponentType> = {
  '/': Home,
  '/entrar': anonymous(<LoginPage />),
  '/cadastro': anonymous(<RegisterPage />),
  '/cadastro/professor': anonymous(<TeacherRegisterPage />),
  '/esqueci-senha': ForgotPasswordPage,
  '/redefinir-senha': ResetPasswordPage,
  '/minha-conta': authed(<AccountPage />),
  '/feed': authed(<FeedPage />),
  '/feed/:id': withId(PostPage),
  '/partidas': authed(<MatchesPage />),
  '/partidas/:id': withId(MatchPage),
  '/notificacoes': authed(<NotificationsPage />),
  '/grupos': authed(<GroupsPage />),
  '/grupos/:id': withId(GroupPage),
  '/administracao': admin(<AdminPage />),
  '/administracao/denuncias': admin(<ReportsPage />),
};

/** Pages that read nothing from the API through the data layer. */
const WITHOUT_DATA = new Set(['/', '/entrar']);

const ROUTES = Object.entries(pages).map(([path, Content]) => (
  <Route
    key={path}
    path={path}
    element={
      <Screen data={!WITHOUT_DATA.has(path)}>
        <Content />
      </Screen>
    }
  />
));

/** The page of the current address. */
export function AppRoutes() {
  return (
    <Routes>
      {ROUTES}
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
