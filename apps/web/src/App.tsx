import { withNext } from './lib/next';
import { Link, NavigationBridge, useLocation } from './lib/router';
import { AppRoutes } from './routes';
import { OfflineNotice } from './session/OfflineNotice';
import { useSession } from './session/SessionProvider';
import { BottomNav } from './shell/BottomNav';

/** A visitor's header: the brand, and the login and sign-up (keeping the page they were going to). */
function VisitorHeader() {
  const { query, path } = useLocation();
  const next = query.get('next');
  const link = (to: string, label: string) => (
    <Link to={withNext(to, next)} aria-current={path === to ? 'page' : undefined}>
      {label}
    </Link>
  );
  return (
    <header className="site-header">
      <Link to="/" className="brand">
        Campus
      </Link>
      <nav aria-label="Principal">
        {link('/entrar', 'Entrar')}
        {link('/cadastro', 'Criar conta')}
      </nav>
    </header>
  );
}

/**
 * The shell around every page. Logged in: the page (its own header: title and main action) and
 * the bottom navigation; a visitor: a header with the login and sign-up.
 */
export function App() {
  const { user } = useSession();
  return (
    <>
      <NavigationBridge />
      <a className="skip-link" href="#conteudo">
        Pular para o conteúdo
      </a>
      {user ? null : <VisitorHeader />}
      <main id="conteudo" tabIndex={-1} className={user ? 'with-bottom-nav' : undefined}>
        <OfflineNotice />
        <AppRoutes />
      </main>
      {user ? <BottomNav /> : null}
    </>
  );
}
