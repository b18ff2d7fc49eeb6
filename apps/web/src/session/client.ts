import type { AppRouter } from '@campus/api';
import {
  createTRPCClient,
  httpBatchLink,
  httpLink,
  httpSubscriptionLink,
  splitLink,
  type TRPCLink,
} from '@trpc/client';
import type { EventSource as EventSourcePonyfill } from 'eventsource';
import { observable, type Unsubscribable } from '@trpc/server/observable';
import { isUnauthorized, readFailure } from '../lib/errors';
import { boundedFetch } from './bounded-fetch';
import { idempotencyHeader, idempotencyLink } from './network';
import {
  browserLock,
  createRefreshCoordinator,
  type RefreshCoordinator,
  type RenewAnswer,
  type RenewOutcome,
} from './refresh';
import type { RouterOutputs, SessionStore } from './store';

export const SESSION_ENDED = 'Sua sessão terminou. Entre novamente para continuar.';
export const ACCOUNT_BLOCKED =
  'Sua sessão terminou: sua conta foi desativada por um administrador. Se acha que é um engano, fale com a administração do Campus.';

/** Why the server ended the session, for the login page: a blocked account is told so. */
const endedBecause = (reason: string | undefined) =>
  reason === 'ACCOUNT_NOT_ACTIVE' ? ACCOUNT_BLOCKED : SESSION_ENDED;

let LoadedEventSource: typeof EventSourcePonyfill | undefined;
/**
 * The `eventsource` ponyfill, fetched with the first live stream rather than with the first page:
 * tRPC awaits `eventSourceOptions` (which loads it) before it constructs the stream.
 */
function LazyEventSource(
  url: string | URL,
  init?: ConstructorParameters<typeof EventSourcePonyfill>[1],
) {
  return new LoadedEventSource!(url, init);
}

/**
 * Transparent refresh: a call answered 401 waits for one token refresh (shared by every call
 * that failed meanwhile) and is sent once more with the new token. A refused refresh, or a second
 * 401 after a successful one, ends the session (the app then shows the login page).
 */
export function refreshLink(
  store: SessionStore,
  coordinator: RefreshCoordinator,
  refusal: () => string,
): TRPCLink<AppRouter> {
  return () =>
    ({ op, next }) =>
      observable((observer) => {
        let subscription: Unsubscribable | undefined;
        let retried = false;
        const attempt = () => {
          const usedToken = store.get().accessToken;
          subscription = next(op).subscribe({
            next: (value) => observer.next(value),
            complete: () => observer.complete(),
            error: (error) => {
              if (!isUnauthorized(error) || store.refreshToken() === null) {
                observer.error(error);
              } else if (retried) {
                store.signOut(endedBecause(readFailure(error).reason));
                observer.error(error);
              } else {
                retried = true;
                void coordinator.renew(usedToken).then((outcome) => {
                  if (outcome === 'renewed') return attempt();
                  if (outcome === 'refused') store.signOut(refusal());
                  observer.error(error);
                });
              }
            },
          });
        };
        attempt();
        return () => subscription?.unsubscribe();
      });
}

export interface SessionClientOptions {
  url?: string;
  lock?: <T>(task: () => Promise<T>) => Promise<T>;
  fetch?: typeof fetch;
  /** How long a call may wait for its answer (session/bounded-fetch.ts). */
  timeoutMs?: number;
  /**
   * A renewal of the stored session already under way (the page's first script: session/early.ts,
   * which stores the rotated refresh token itself): the first refresh adopts its answer.
   */
  renewal?: Promise<RenewAnswer> | null;
}

/** An upload's answer: what a post's `mediaIds` takes (`id`) and how it shows. */
export type UploadedPhoto = RouterOutputs['media']['upload'];

/**
 * The API client of a browser session: the typed tRPC client for the app, and login, restore
 * (after a reload) and logout around the session store.
 */
export function createSessionClient(
  store: SessionStore,
  {
    url = '/trpc',
    lock = browserLock,
    fetch: fetchImpl,
    timeoutMs,
    renewal = null,
  }: SessionClientOptions = {},
) {
  const headers = (): Record<string, string> => {
    const token = store.get().accessToken;
    return token ? { authorization: `Bearer ${token}` } : {};
  };
  /** A multipart upload over REST with the session's token, renewed first when about to expire. */
  async function sendImage<T>(method: 'POST' | 'PUT', path: string, form: FormData): Promise<T> {
    await freshToken();
    const res = await (fetchImpl ?? fetch)(path, { method, headers: headers(), body: form });
    const body = (await res.json()) as T & { message?: string };
    if (!res.ok) throw new Error(body.message ?? 'Não foi possível enviar a imagem.');
    return body;
  }
  // Every call but the live streams waits 15 s at most (session/bounded-fetch.ts).
  const transport = { url, headers, fetch: boundedFetch(fetchImpl, timeoutMs) };
  /** Why the last refused refresh was refused (the login page says it). */
  let refusal = SESSION_ENDED;
  // Login, refresh and logout go around the refresh link: their 401s mean what they say.
  const authClient = createTRPCClient<AppRouter>({ links: [httpLink(transport)] });

  async function exchange(refreshToken: string): Promise<RenewAnswer> {
    try {
      return { dados: (await authClient.auth.refresh.mutate({ refreshToken })).dados };
    } catch (error) {
      const { httpStatus, reason } = readFailure(error);
      return { status: httpStatus, reason };
    }
  }
  /** A refused answer's reason becomes the login page's notice; no status: out of reach. */
  function failure({ status, reason }: { status?: number; reason?: string }): RenewOutcome {
    refusal = endedBecause(reason);
    return status === 400 || status === 401 || status === 403 ? 'refused' : 'failed';
  }

  const coordinator = createRefreshCoordinator({
    currentAccessToken: () => store.get().accessToken,
    withLock: lock,
    async refresh() {
      const early = renewal;
      renewal = null;
      // Read inside the lock: another tab may have just rotated it, or logged out.
      const refreshToken = store.refreshToken();
      if (!refreshToken) return failure({ status: 401 });
      const answer = await (early ?? exchange(refreshToken));
      if (!('dados' in answer)) return failure(answer);
      // The first script's renewal stored its rotated token itself: see `resume`.
      if (early) store.resume(answer.dados);
      else store.signIn(answer.dados);
      return 'renewed';
    },
  });

  const client = createTRPCClient<AppRouter>({
    links: [
      idempotencyLink(),
      refreshLink(store, coordinator, () => refusal),
      splitLink({
        condition: (op) => op.type === 'subscription',
        // Live streams over SSE. The browser's own EventSource cannot send headers, and a token in
        // the URL would reach access logs: this one sends the Authorization header over fetch.
        true: httpSubscriptionLink({
          url,
          EventSource: LazyEventSource as unknown as typeof EventSourcePonyfill,
          eventSourceOptions: async () => {
            LoadedEventSource ??= (await import('eventsource')).EventSource;
            return {
              fetch: (input, init) =>
                (fetchImpl ?? fetch)(input, {
                  ...init,
                  headers: { ...init?.headers, ...headers() },
                }),
            };
          },
        }),
        false: splitLink({
          // Actions one per request, each with its own Idempotency-Key header.
          condition: (op) => op.type === 'mutation',
          true: httpLink({
            ...transport,
            headers: ({ op }) => ({ ...headers(), ...idempotencyHeader(op.context) }),
          }),
          // The server refuses batches of more than 10 calls (MAX_BATCH_SIZE in apps/server/src/app.ts).
          false: httpBatchLink({ ...transport, maxItems: 10 }),
        }),
      }),
    ],
  });

  /** Renews the access token first when it expires within 10 s (before opening a stream). */
  async function freshToken() {
    const token = store.get().accessToken;
    if (!token) return;
    try {
      const payload = JSON.parse(
        atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')),
      ) as { exp?: number };
      if (payload.exp && payload.exp * 1000 - Date.now() > 10_000) return;
    } catch {
      // not a JWT we can read: let the server decide
    }
    const outcome = await coordinator.renew(token);
    if (outcome === 'refused') store.signOut(refusal);
  }

  return {
    client,
    store,
    coordinator,
    freshToken,
    async login(email: string, senha: string) {
      const { dados } = await authClient.auth.login.mutate({ email, senha });
      store.signIn(dados);
      return dados.usuario;
    },
    /** After a reload: a stored refresh token becomes a session again, or is dropped. */
    async restore() {
      if (store.refreshToken() === null || store.get().user) return;
      const outcome = await coordinator.renew(null);
      if (outcome === 'refused') store.signOut(refusal);
      if (outcome === 'failed')
        store.signOut('Não foi possível falar com o servidor. Tente de novo.');
    },
    /**
     * POST /media (docs/contract/media.md): one photo and its description, as multipart. Over
     * REST with the session's token, renewed first when it is about to expire.
     */
    async uploadPhoto(file: Blob, alt: string): Promise<UploadedPhoto> {
      const form = new FormData();
      form.append('alt', alt);
      form.append('file', file);
      return sendImage<UploadedPhoto>('POST', '/media', form);
    },
    /** PUT of an avatar or a group's logo (docs/contract/media.md): the image as the `file` part. */
    async putImage(path: string, file: Blob): Promise<unknown> {
      const form = new FormData();
      form.append('file', file);
      return sendImage('PUT', path, form);
    },
    /** Ends the session on the server (its refresh token stops working), then here in any case. */
    async logout() {
      if (store.refreshToken() === null) return store.signOut(null, { left: true });
      try {
        const attempt = () =>
          authClient.auth.logout.mutate({ refreshToken: store.refreshToken() ?? '' });
        try {
          await attempt();
        } catch (error) {
          if (!isUnauthorized(error)) throw error;
          if ((await coordinator.renew(store.get().accessToken)) === 'renewed') await attempt();
        }
      } catch {
        // The server may be unreachable: the local session ends all the same.
      } finally {
        store.signOut(null, { left: true });
      }
    },
  };
}

export type SessionClient = ReturnType<typeof createSessionClient>;
