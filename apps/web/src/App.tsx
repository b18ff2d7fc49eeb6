import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import { Page } from './components/Page';
import { Link, matchPath, Redirect, useLocation } from './lib/router';
import { LoginPage, nextPath } from './pages/LoginPage';
import { NotificationBell } from './pages/notifications/NotificationBell';
import { useSession } from './session/SessionProvider';

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
  import('./pages/account/AccountPage').then((module) => ({ default: module.AccountPage })),
);
const TeacherRegisterPage = lazy(() =>
  import('./pages/account/TeacherRegisterPage').then((module) => ({
    default: module.TeacherRegisterPage,
  })),
);
const ForgotPasswordPage = lazy(() =>
  import('./pages/account/RecoveryPages').then((module) => ({
    default: module.ForgotPasswordPage,
  })),
);
const ResetPasswordPage = lazy(() =>
  import('./pages/account/RecoveryPages').then((module) => ({ default: module.ResetPasswordPage })),
);
const loading = <p role="status">Carregando…</p>;

/** The page for a path; pages that need a session send a visitor to the login first. */
function useRoute(): ReactNode {
  const { path, href, query } = useLocation();
  const { user } = useSession();
  const login = <Redirect to={`/entrar?next=${encodeURIComponent(href)}`} />;
  const authed = (page: ReactNode) => (user ? page : login);
  let params: Record<string, string> | null;

  if (path === '/') return <Redirect to={user ? '/feed' : '/entrar'} />;
  if (path === '/entrar') return user ? <Redirect to={nextPath(query)} /> : <LoginPage />;
  if (path === '/cadastro') return user ? <Redirect to="/feed" /> : <RegisterPage />;
  if (path === '/esqueci-senha') return <ForgotPasswordPage />;
  if (path === '/redefinir-senha') return <ResetPasswordPage />;
  if (path === '/cadastro/professor')
    return user ? <Redirect to="/feed" /> : <TeacherRegisterPage />;
  if (path === '/minha-conta') return authed(<AccountPage />);
  if (path === '/feed') return authed(<FeedPage />);
  if ((params = matchPath('/feed/:id', path)))
    return authed(<PostPage key={params.id} id={params.id!} />);
  if (path === '/partidas') return authed(<MatchesPage />);
  if ((params = matchPath('/partidas/:id', path)))
    return authed(<MatchPage key={params.id} id={params.id!} />);
  if (path === '/notificacoes') return authed(<NotificationsPage />);
  if (path === '/grupos') return authed(<GroupsPage />);
  if ((params = matchPath('/grupos/:id', path)))
    return authed(<GroupPage key={params.id} id={params.id!} />);
  if (path === '/administracao')
    return authed(user?.perfil === 'ADMIN' ? <AdminPage /> : <Forbidden />);
  if (path === '/administracao/denuncias')
    return authed(user?.perfil === 'ADMIN' ? <ReportsPage /> : <Forbidden />);
  return <NotFound />;
}

function NavLink({ to, children }: { to: string; children: ReactNode }) {
  const { path } = useLocation();
  const current = path === to || path.startsWith(`${to}/`);
  return (
    <Link to={to} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

/**
 * After a navigation the new page's heading takes the focus (not on the first load). Inside the
 * pages' Suspense, so that it runs once a page that loads with its first visit is there.
 */
function FocusHeading({ path }: { path: string }) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [path]);
  return null;
}

export function App() {
  const { user, logout } = useSession();
  const { path } = useLocation();
  const page = useRoute();

  return (
    <>
      <a className="skip-link" href="#conteudo">
        Pular para o conteúdo
      </a>
      <header className="site-header">
        <Link to="/" className="brand">
          Campus
        </Link>
        <nav aria-label="Principal">
          {user ? (
            <>
              <NavLink to="/feed">Feed</NavLink>
              <NavLink to="/partidas">Partidas</NavLink>
              <NavLink to="/grupos">Grupos</NavLink>
              {user.perfil === 'ADMIN' ? (
                <>
                  <NavLink to="/administracao">Administração</NavLink>
                  <NavLink to="/administracao/denuncias">Denúncias</NavLink>
                </>
              ) : null}
            </>
          ) : (
            <>
              <NavLink to="/entrar">Entrar</NavLink>
              <NavLink to="/cadastro">Criar conta</NavLink>
            </>
          )}
        </nav>
        {user ? (
          <div className="user-box">
            <NotificationBell />
            <Link to="/minha-conta">
              @{user.nickname}
              <span className="visually-hidden"> está conectado: minha conta</span>
            </Link>
            <button type="button" onClick={() => void logout()}>
              Sair
            </button>
          </div>
        ) : null}
      </header>
      <main id="conteudo" tabIndex={-1}>
        <Suspense fallback={loading}>
          {page}
          <FocusHeading path={path} />
        </Suspense>
      </main>
    </>
  );
}
