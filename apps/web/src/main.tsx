import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App';
import { readFailure } from './lib/errors';
import { TRPCProvider } from './lib/trpc';
import { createSessionClient } from './session/client';
import { SessionProvider } from './session/SessionProvider';
import { createSessionStore, localTokenStorage, REFRESH_TOKEN_KEY } from './session/store';
import './styles/base.css';
import './styles/content.css';

const store = createSessionStore(localTokenStorage());
const session = createSessionClient(store);

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      // A 4xx will not change by asking again; network trouble and 5xx get two more tries.
      retry: (count, error) => {
        const status = readFailure(error).httpStatus;
        return (status === undefined || status >= 500) && count < 2;
      },
    },
    // An action runs when tapped or fails with a message: never paused offline and replayed
    // unannounced when the connection returns, never retried behind the user's back.
    mutations: { networkMode: 'always', retry: false },
  },
});

// A session that ends forgets every cached answer (the next user must not see them).
let signedIn = store.get().user !== null;
store.subscribe(() => {
  const now = store.get().user !== null;
  if (signedIn && !now) queryClient.clear();
  signedIn = now;
});
// Logging out in another tab removes the shared refresh token: end this tab's session too.
window.addEventListener('storage', (event) => {
  if (event.key === REFRESH_TOKEN_KEY && event.newValue === null) store.signOut(null);
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={session.client} queryClient={queryClient}>
        <SessionProvider session={session}>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </SessionProvider>
      </TRPCProvider>
    </QueryClientProvider>
  </StrictMode>,
);
