import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App';
import { registerServiceWorker } from './push/service-worker';
import { preloadLanding } from './routes';
import { createSessionClient } from './session/client';
import { preloadDataLayer } from './session/data';
import { SessionProvider } from './session/SessionProvider';
import { createSessionStore, localTokenStorage, REFRESH_TOKEN_KEY } from './session/store';
import './styles/base.css';
import './styles/content.css';

const store = createSessionStore(localTokenStorage());
const session = createSessionClient(store);

// Logging out in another tab removes the shared refresh token: end this tab's session too.
window.addEventListener('storage', (event) => {
  if (event.key === REFRESH_TOKEN_KEY && event.newValue === null) store.signOut(null);
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider session={session}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </SessionProvider>
  </StrictMode>,
);
// A returning student (a stored session) lands on a page that reads the API: its code now.
if (store.refreshToken()) preloadLanding(window.location.pathname);
preloadDataLayer();
registerServiceWorker();
