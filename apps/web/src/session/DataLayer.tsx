import type { AppRouter } from '@campus/api';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import type { ReactNode } from 'react';
import { readFailure } from '../lib/errors';
import { TRPCProvider } from '../lib/trpc';
import type { SessionClient } from './client';
import { takeEarlyFeedPage } from './early';
import { useSessionClient } from './SessionProvider';

/*
 * TanStack Query and tRPC's hooks for the pages that read the API: a chunk of its own, so that
 * the first load (the login page, which needs neither) stays small (issue 17: ≤110 kB gzip).
 * One QueryClient for the whole tab, however many places mount this.
 */

let shared: QueryClient | null = null;

function queryClientFor(session: SessionClient): QueryClient {
  if (shared) return shared;
  const client = new QueryClient({
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
  let signedIn = session.store.get().user !== null;
  session.store.subscribe(() => {
    const now = session.store.get().user !== null;
    if (signedIn && !now) client.clear();
    signedIn = now;
  });
  return (shared = client);
}

export default function DataLayer({ children }: { children: ReactNode }) {
  const session = useSessionClient();
  const queryClient = queryClientFor(session);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={session.client} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}

/**
 * Reads a returning student's landing page as soon as the session is renewed (boot.ts), before
 * React has rendered it: the page's own query then finds its answer on the way. The feed only,
 * the page most people open the app on.
 */
export async function prefetchLanding(session: SessionClient, path: string, search: string) {
  if (path !== '/' && path !== '/feed') return;
  const { prefetchFeed } = await import('../pages/feed/FeedPage');
  const queryClient = queryClientFor(session);
  const trpc = createTRPCOptionsProxy<AppRouter>({ client: session.client, queryClient });
  await prefetchFeed(queryClient, trpc, search, takeEarlyFeedPage(search));
}
