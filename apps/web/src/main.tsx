import './boot';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App';
import { registerServiceWorker } from './push/service-worker';
import { preloadDataLayer } from './session/data';
import { restored, session } from './session/instance';
import { SessionProvider } from './session/SessionProvider';
import './styles/base.css';
import './styles/content.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider session={session} restored={restored}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </SessionProvider>
  </StrictMode>,
);
preloadDataLayer();
registerServiceWorker();
