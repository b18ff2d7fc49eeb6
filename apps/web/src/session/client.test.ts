import { describe, expect, it } from 'vitest';
import { ACCOUNT_BLOCKED, createSessionClient, SESSION_ENDED } from './client';
import type { RenewAnswer } from './refresh';
import { createSessionStore, memoryTokenStorage } from './store';

type Outcome = { data: unknown } | { status: number; reason?: string } | 'offline';
type Handler = (path: string, input: unknown, token: string | null) => Outcome;

const usuario = {
  id: '00000000-0000-4000-8000-000000000001',
  nome: 'Ana',
  nickname: 'ana',
  email: 'ana@campus.test',
  perfil: 'ALUNO' as const,
  status: 'ATIVO' as const,
};
const session = (n: number) => ({
  mensagem: 'ok',
  dados: { accessToken: `access-${n}`, refreshToken: `refresh-${n}`, expiresIn: 5, usuario },
});

/**
 * A stand-in for the server's /trpc over fetch, speaking tRPC's wire format (batched and single
 * calls, no transformer), recording each procedure call with the bearer token it carried.
 */
function fakeApi(handle: Handler) {
  const calls: { path: string; token: string | null; input: unknown; key: string | null }[] = [];
  const fetchImpl = async (url: RequestInfo | URL, init?: RequestInit) => {
    const address = new URL(String(url), 'http://test');
    const batch = address.searchParams.get('batch') === '1';
    const paths = address.pathname.slice('/trpc/'.length).split(',');
    const raw: unknown =
      init?.method === 'POST'
        ? JSON.parse(String(init.body ?? 'null'))
        : JSON.parse(address.searchParams.get('input') ?? 'null');
    const sent = new Headers(init?.headers);
    const token = sent.get('authorization')?.replace(/^Bearer /, '') ?? null;
    const key = sent.get('idempotency-key');
    const results = paths.map((path, i) => {
      const input = batch ? (raw as Record<string, unknown> | null)?.[i] : raw;
      calls.push({ path, token, input, key });
      const outcome = handle(path, input, token);
      if (outcome === 'offline') throw new TypeError('Failed to fetch');
      if ('data' in outcome) return { status: 200, body: { result: { data: outcome.data } } };
      const data = {
        httpStatus: outcome.status,
        path,
        code: 'X',
        appCode: 'X',
        ...(outcome.reason ? { reason: outcome.reason } : {}),
      };
      return {
        status: outcome.status,
        body: { error: { message: 'refused', code: -32001, data } },
      };
    });
    const status = results.every((r) => r.status === results[0]!.status) ? results[0]!.status : 207;
    const body = batch ? results.map((r) => r.body) : results[0]!.body;
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetchImpl: fetchImpl as typeof fetch, calls };
}

/** A client whose access token is `access-1`, already expired on the fake server. */
function signedInClient(handle: Handler) {
  const api = fakeApi(handle);
  const store = createSessionStore(memoryTokenStorage());
  store.signIn(session(1).dados);
  const client = createSessionClient(store, {
    url: 'http://test/trpc',
    lock: (task) => task(),
    fetch: api.fetchImpl,
  });
  return { ...client, calls: api.calls };
}

/** Refresh rotates refresh-1 → access-2/refresh-2; calls need access-2. */
const rotating: Handler = (path, input, token) => {
  if (path === 'auth.refresh') {
    return (input as { refreshToken: string }).refreshToken === 'refresh-1'
      ? { data: session(2) }
      : { status: 401, reason: 'REFRESH_TOKEN_REUSED' };
  }
  return token === 'access-2'
    ? { data: { mensagem: 'ok', dados: usuario } }
    : { status: 401, reason: 'TOKEN_EXPIRED' };
};

describe('transparent token refresh', () => {
  it('refreshes once for several calls that failed together, and retries each once', async () => {
    const { client, store, calls } = signedInClient(rotating);
    const answers = await Promise.all([
      client.auth.me.query(),
      client.auth.me.query(),
      client.feed.list.query({ page: 1, limit: 10 }),
    ]);
    expect(answers).toHaveLength(3);
    expect(calls.filter((c) => c.path === 'auth.refresh')).toHaveLength(1);
    const sent = calls.filter((c) => c.path !== 'auth.refresh');
    expect(sent.filter((c) => c.token === 'access-1')).toHaveLength(3);
    expect(sent.filter((c) => c.token === 'access-2')).toHaveLength(3);
    expect(store.get().accessToken).toBe('access-2');
    expect(store.refreshToken()).toBe('refresh-2');
  });

  it('ends the session when the refresh is refused (e.g. the account was blocked)', async () => {
    const { client, store } = signedInClient((path) =>
      path === 'auth.refresh'
        ? { status: 401, reason: 'ACCOUNT_NOT_ACTIVE' }
        : { status: 401, reason: 'ACCOUNT_NOT_ACTIVE' },
    );
    await expect(client.auth.me.query()).rejects.toThrow();
    expect(store.get()).toEqual({
      accessToken: null,
      user: null,
      notice: ACCOUNT_BLOCKED,
      left: false,
    });
    expect(store.refreshToken()).toBeNull();
  });

  it('says the session merely ended when the refresh token is refused for another reason', async () => {
    const { client, store } = signedInClient((path) =>
      path === 'auth.refresh' ? { status: 401, reason: 'TOKEN_INVALID' } : { status: 401 },
    );
    await expect(client.auth.me.query()).rejects.toThrow();
    expect(store.get().notice).toBe(SESSION_ENDED);
  });

  it('logs out when the call is refused again with the new token', async () => {
    const { client, store, calls } = signedInClient((path) =>
      path === 'auth.refresh' ? { data: session(2) } : { status: 401 },
    );
    await expect(client.auth.me.query()).rejects.toThrow();
    expect(calls.map((c) => c.path)).toEqual(['auth.me', 'auth.refresh', 'auth.me']);
    expect(store.get().user).toBeNull();
  });

  it('keeps the session when the server cannot be reached during the refresh', async () => {
    const { client, store } = signedInClient((path) =>
      path === 'auth.refresh' ? 'offline' : { status: 401 },
    );
    await expect(client.auth.me.query()).rejects.toThrow();
    expect(store.get().user).toEqual(usuario);
    expect(store.refreshToken()).toBe('refresh-1');
  });

  it('leaves other errors alone', async () => {
    const { client, store, calls } = signedInClient(() => ({ status: 403, reason: 'MATCH_FULL' }));
    await expect(client.matches.subscribe.mutate({ id: usuario.id })).rejects.toThrow();
    expect(calls).toHaveLength(1);
    expect(store.get().user).toEqual(usuario);
  });
});

describe('login, restore and logout', () => {
  it('logs in, and a reloaded page restores the session from the stored refresh token', async () => {
    const api = fakeApi((path) =>
      path === 'auth.login'
        ? { data: session(1) }
        : rotating(path, { refreshToken: 'refresh-1' }, null),
    );
    const tokens = memoryTokenStorage();
    const first = createSessionClient(createSessionStore(tokens), {
      url: 'http://test/trpc',
      fetch: api.fetchImpl,
    });
    await first.login('ana@campus.test', 'senha-123');
    expect(tokens.read()).toBe('refresh-1');

    // "Reload": a new store over the same storage, with nothing in memory.
    const store = createSessionStore(tokens);
    const reloaded = createSessionClient(store, { url: 'http://test/trpc', fetch: api.fetchImpl });
    await reloaded.restore();
    expect(store.get()).toMatchObject({ accessToken: 'access-2', user: usuario });
  });

  it('drops a stored refresh token the server refuses', async () => {
    const api = fakeApi(() => ({ status: 401, reason: 'TOKEN_INVALID' }));
    const store = createSessionStore(memoryTokenStorage('stale'));
    await createSessionClient(store, { url: 'http://test/trpc', fetch: api.fetchImpl }).restore();
    expect(store.refreshToken()).toBeNull();
    expect(store.get().user).toBeNull();
  });

  /** A reloaded page whose first script already renewed (or tried to): session/early.ts. */
  function restoredFrom(renewal: RenewAnswer, stored: string | null) {
    const api = fakeApi((path, input, token) =>
      path === 'auth.refresh' && (input as { refreshToken: string }).refreshToken === 'refresh-2'
        ? { data: session(3) }
        : rotating(path, input, token),
    );
    const store = createSessionStore(memoryTokenStorage(stored));
    const client = createSessionClient(store, {
      url: 'http://test/trpc',
      fetch: api.fetchImpl,
      lock: (task) => task(),
      renewal: Promise.resolve(renewal),
    });
    return { ...client, calls: api.calls };
  }

  it('adopts a renewal already under way, leaving its stored token as it was written', async () => {
    // The first script stored refresh-2 under the lock; writing it again could undo a later tab's.
    const { restore, store, coordinator, calls } = restoredFrom(session(2), 'refresh-2');
    await restore();
    expect(store.get()).toMatchObject({ accessToken: 'access-2', user: usuario, notice: null });
    expect(calls).toEqual([]);
    // Only the first refresh is adopted: the next one exchanges the stored token.
    expect(await coordinator.renew('access-2')).toBe('renewed');
    expect(calls.map((c) => [c.path, c.input])).toEqual([
      ['auth.refresh', { refreshToken: 'refresh-2' }],
    ]);
    expect(store.get().accessToken).toBe('access-3');
  });

  it('says why when the renewal under way was refused, or could not reach the server', async () => {
    const blocked = restoredFrom({ status: 401, reason: 'ACCOUNT_NOT_ACTIVE' }, 'refresh-1');
    await blocked.restore();
    expect(blocked.store.get()).toMatchObject({ user: null, notice: ACCOUNT_BLOCKED });
    expect(blocked.store.refreshToken()).toBeNull();

    const offline = restoredFrom({ status: undefined, reason: undefined }, 'refresh-1');
    await offline.restore();
    expect(offline.store.get().notice).toBe(
      'Não foi possível falar com o servidor. Tente de novo.',
    );
    expect(offline.calls).toEqual([]);
  });

  it('does not adopt a renewal when another tab logged out meanwhile', async () => {
    const { restore, store } = restoredFrom(session(2), null);
    await restore();
    expect(store.get()).toMatchObject({ accessToken: null, user: null });
  });

  it('logs out on the server with the current refresh token, refreshing first if needed', async () => {
    const { logout, store, calls } = signedInClient((path, input, token) =>
      path === 'auth.logout' && token === 'access-2'
        ? { data: undefined }
        : rotating(path, input, token),
    );
    await logout();
    const last = calls.at(-1)!;
    expect(last).toMatchObject({
      path: 'auth.logout',
      token: 'access-2',
      input: { refreshToken: 'refresh-2' },
    });
    expect(store.get()).toEqual({ accessToken: null, user: null, notice: null, left: true });
    expect(store.refreshToken()).toBeNull();
  });

  it('ends the local session even when the server is unreachable', async () => {
    const { logout, store } = signedInClient(() => 'offline');
    await logout();
    expect(store.get().user).toBeNull();
    expect(store.refreshToken()).toBeNull();
  });
});

describe('actions on a bad network', () => {
  const created = { mensagem: 'ok', dados: { id: usuario.id } };
  // The fake server reads no schema: any input stands for a new post.
  const post = { title: 'Olá', content: 'Oi', type: 'GENERAL' } as never;

  it('sends each action alone with an Idempotency-Key, the same one when tried again after no answer', async () => {
    let online = false;
    const { client, calls } = signedInClient((path, _input, token) => {
      if (path === 'auth.refresh') return { data: session(2) };
      if (token !== 'access-2') return { status: 401, reason: 'TOKEN_EXPIRED' };
      return online ? { data: created } : 'offline';
    });
    await expect(client.feed.create.mutate(post)).rejects.toThrow();
    online = true;
    await client.feed.create.mutate(post);
    await client.feed.create.mutate(post);
    const keys = calls.filter((c) => c.path === 'feed.create').map((c) => c.key);
    // 401 → refresh → retry (one key), the try again after the failure (same key), then a new one.
    expect(keys).toHaveLength(4);
    expect(new Set(keys.slice(0, 3)).size).toBe(1);
    expect(keys[3]).not.toBe(keys[0]);
    expect(keys.every((key) => key && /^[0-9a-f]{32}$/.test(key))).toBe(true);
    // A read carries no key.
    await client.auth.me.query();
    const reads = calls.filter((c) => c.path === 'auth.me');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((c) => c.key === null)).toBe(true);
  });

  it('gives up on a call that gets no answer in time', async () => {
    const store = createSessionStore(memoryTokenStorage());
    const never: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
      );
    const { client } = createSessionClient(store, {
      url: 'http://test/trpc',
      fetch: never,
      timeoutMs: 50,
    });
    // The fetch never answers: only the timeout can end the call.
    await expect(client.feed.create.mutate(post)).rejects.toThrow();
  });
});
