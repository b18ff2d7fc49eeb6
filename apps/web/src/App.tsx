import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import { Page } from './components/Page';
import { Link, matchPath, Redirect, useLocation } from './lib/router';
import { AdminPage } from './pages/admin/AdminPage';
import { FeedPage } from './pages/feed/FeedPage';
import { PostPage } from './pages/feed/PostPage';
import { GroupPage } from './pages/groups/GroupPage';
import { GroupsPage } from './pages/groups/GroupsPage';
import { LoginPage, nextPath } from './pages/LoginPage';
import { MatchesPage } from './pages/matches/MatchesPage';
import { MatchPage } from './pages/matches/MatchPage';
import { NotificationBell } from './pages/notifications/NotificationBell';
import { NotificationsPage } from './pages/notifications/NotificationsPage';
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
 * Registration checks the city against the state's municipalities with the API's own schema:
 * that list (~150 kB) loads only with this page.
 */
const RegisterPage = lazy(() =>
  import('./pages/register/RegisterPage').then((module) => ({ default: module.RegisterPage })),
);
/** The account pages share schemas that check cities against the UF (the same list): lazy too. */
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
const lazily = (page: ReactNode) => <Suspense fallback={loading}>{page}</Suspense>;

/** The page for a path; pages that need a session send a visitor to the login first. */
function useRoute(): ReactNode {
  const { path, href, query } = useLocation();
  const { user } = useSession();
  const login = <Redirect to={`/entrar?next=${encodeURIComponent(href)}`} />;
  const authed = (page: ReactNode) => (user ? page : login);
  let params: Record<string, string> | null;

  if (path === '/') return <Redirect to={user ? '/feed' : '/entrar'} />;
  if (path === '/entrar') return user ? <Redirect to={nextPath(query)} /> : <LoginPage />;
  if (path === '/cadastro')
    return user ? (
      <Redirect to="/feed" />
    ) : (
      <Suspense fallback={loading}>
        <RegisterPage />
      </Suspense>
    );
  if (path === '/esqueci-senha') return lazily(<ForgotPasswordPage />);
  if (path === '/redefinir-senha') return lazily(<ResetPasswordPage />);
  if (path === '/cadastro/professor')
    return user ? <Redirect to="/feed" /> : lazily(<TeacherRegisterPage />);
  if (path === '/minha-conta') return authed(lazily(<AccountPage />));
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

export function App() {
  const { user, logout } = useSession();
  const { path } = useLocation();
  const page = useRoute();
  const first = useRef(true);

  // After a navigation the new page's heading takes the focus (not on the first load).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [path]);

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
                <NavLink to="/administracao">Administração</NavLink>
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
        {page}
      </main>
    </>
  );
}
