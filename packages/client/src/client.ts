import {
  createTRPCClient,
  httpBatchLink,
  httpLink,
  httpSubscriptionLink,
  splitLink,
  type TRPCClient,
} from '@trpc/client';
import { EventSource } from 'eventsource';
import { authorizationHeader, baseUrl, type ConnectionOptions } from './connection.js';
import type { AppRouter } from './generated/router.js';

/** The most calls the server takes in one /trpc batch (more are refused with 400). */
export const MAX_BATCH_SIZE = 10;

export type ClientOptions = ConnectionOptions;

/** The typed tRPC client of the app router: `client.feed.list.query({ page: 1 })`. */
export type CampusClient = TRPCClient<AppRouter>;

/**
 * A tRPC client of the service. Queries and mutations made in the same tick travel in one
 * batch (at most `MAX_BATCH_SIZE` calls); subscriptions are server-sent event streams that
 * send the token in a header (never in the URL) and resume from the last tracked event after a
 * reconnection. A mutation given `context: { idempotencyKey }` is sent alone with that
 * `Idempotency-Key`: sent again with the same key, it is done once and answered the same.
 */
export function createClient(options: ClientOptions): CampusClient {
  const url = `${baseUrl(options.url)}/trpc`;
  const headers = () => authorizationHeader(options);
  const fetchImpl = options.fetch;
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url,
          EventSource,
          // Read at each (re)connection, so a reconnecting stream sends the current token.
          eventSourceOptions: async () => {
            const authorization = await headers();
            return {
              fetch: (input, init) =>
                (fetchImpl ?? fetch)(input, {
                  ...init,
                  headers: { ...init?.headers, ...authorization },
                }),
            };
          },
        }),
        false: splitLink({
          condition: (op) => typeof op.context.idempotencyKey === 'string',
          true: httpLink({
            url,
            fetch: fetchImpl,
            headers: async ({ op }) => ({
              ...(await headers()),
              'idempotency-key': op.context.idempotencyKey as string,
            }),
          }),
          false: httpBatchLink({ url, fetch: fetchImpl, headers, maxItems: MAX_BATCH_SIZE }),
        }),
      }),
    ],
  });
}
