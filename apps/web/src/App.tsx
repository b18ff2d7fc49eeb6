import { lazy, Suspense, type ReactNode } from 'react';
import { withNext } from './lib/next';
import { Link, NavigationBridge, useLocation } from './lib/router';
import { AppRoutes } from './routes';
import { DataLayer } from './session/data';
import { OfflineNotice } from './session/OfflineNotice';
import { useSession } from './session/SessionProvider';

const NotificationBell = lazy(() =>
  import('./pages/notifications/NotificationBell').then((m) => ({ default: m.NotificationBell })),
);

function NavLink({ to, children }: { to: string; children: ReactNode }) {
  const { path } = useLocation();
  const target = to.split('?')[0]!;
  const current = path === target || path.startsWith(`${target}/`);
  return (
    <Link to={to} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

/** The shell around every page: header, navigation, the page of the address. */
export function App() {
  const { user, logout } = useSession();
  const { query } = useLocation();
  // Between the login and the sign-up pages, the page a visitor was going to stays along.
  const next = query.get('next');

  return (
    <>
      <NavigationBridge />
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
              <NavLink to={withNext('/entrar', next)}>Entrar</NavLink>
              <NavLink to={withNext('/cadastro', next)}>Criar conta</NavLink>
            </>
          )}
        </nav>
        {user ? (
          <div className="user-box">
            <Suspense fallback={null}>
              <DataLayer>
                <NotificationBell />
              </DataLayer>
            </Suspense>
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
        <OfflineNotice />
        <AppRoutes />
      </main>
    </>
  );
}
