import { refreshTokens } from '@campus/core';
import { eq } from 'drizzle-orm';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { expectError, testAuthConfig, type TestUser, onTestAppWithUsers } from '../support/app';
import { login, loginAs, refresh } from '../support/auth';
import { appWithRateLimits, expectTrpcError, trpc } from './support';

/**
 * Forged and stale credentials against an ADMIN procedure (the prize), REST and /trpc: every one is
 * a 401, never a 403 (which would mean the forged identity was believed) nor a 200. The
 * authentication rate limit itself (429, Retry-After, shared store) is tested in rate-limit.test.ts.
 */
const {
  t,
  users: [student],
} = onTestAppWithUsers({});

const ISSUER = 'campus-api';
const secret = testAuthConfig.jwtSecret;

function forgedTokens(user: TestUser) {
  const claims = { perfil: 'ADMIN', nickname: user.nickname };
  const options = { subject: user.id, issuer: ISSUER, expiresIn: 900 } as const;
  const [header, , signature] = user.token.split('.');
  const payload = { ...(jwt.decode(user.token) as object), perfil: 'ADMIN' };
  const now = Math.floor(Date.now() / 1000);
  return {
    'alg none': jwt.sign(claims, '', { ...options, algorithm: 'none' }),
    'wrong secret': jwt.sign(claims, 'an-attacker-secret-of-enough-length-000000', {
      ...options,
      algorithm: 'HS256',
    }),
    'right secret, HS512 (algorithm not pinned)': jwt.sign(claims, secret, {
      ...options,
      algorithm: 'HS512',
    }),
    expired: jwt.sign({ ...claims, iat: now - 3600, exp: now - 60 }, secret, {
      subject: user.id,
      issuer: ISSUER,
    }),
    'tampered payload (perfil ADMIN, original signature)': `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`,
    'signature stripped': `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`,
    'no expiry': jwt.sign(claims, secret, { subject: user.id, issuer: ISSUER }),
    'other issuer': jwt.sign(claims, secret, { ...options, issuer: 'someone-else' }),
    'unknown subject': jwt.sign(claims, secret, {
      ...options,
      subject: '3f1b7f9e-0000-4000-8000-000000000000',
    }),
    'subject not a UUID': jwt.sign(claims, secret, { ...options, subject: "' or 1=1 --" }),
  };
}

describe('API2:2023 Broken Authentication', () => {
  it('forged, tampered and expired access tokens → 401 on an ADMIN procedure, REST and /trpc', async () => {
    for (const [name, token] of Object.entries(forgedTokens(student))) {
      const auth = { Authorization: `Bearer ${token}` };
      const rest = await t.request.get('/admin/usuarios').set(auth);
      expect(rest.status, name).toBe(401);
      expectError(rest, 401, 'UNAUTHORIZED');
      expectTrpcError(await trpc(t.request, 'admin.listUsers', {}, auth), 401, 'UNAUTHORIZED');
    }
  });

  it('the perfil comes from the database, not from the token: a validly signed ADMIN claim of an ALUNO → 403', async () => {
    const token = jwt.sign({ perfil: 'ADMIN', nickname: student.nickname }, secret, {
      subject: student.id,
      issuer: ISSUER,
      expiresIn: 900,
      algorithm: 'HS256',
    });
    const res = await t.request.get('/admin/usuarios').set('Authorization', `Bearer ${token}`);
    expect(expectError(res, 403, 'FORBIDDEN').reason).toBe('ADMIN_REQUIRED');
  });

  it('the token is read from the Authorization header only (not from the query string or a cookie)', async () => {
    for (const where of [`?access_token=${student.token}`, `?token=${student.token}`]) {
      expectError(await t.request.get(`/autenticacao/usuario-atual${where}`), 401, 'UNAUTHORIZED');
    }
    expectError(
      await t.request.get('/autenticacao/usuario-atual').set('Cookie', `token=${student.token}`),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await t.request.get('/autenticacao/usuario-atual').set('Authorization', student.token),
      401,
      'UNAUTHORIZED',
    );
  });

  it('a refresh token is not an access token, and an access token is not a refresh token', async () => {
    const session = (await loginAs(t, student)).body.dados;
    const asBearer = await t.request
      .get('/autenticacao/usuario-atual')
      .set('Authorization', `Bearer ${session.refreshToken}`);
    expectError(asBearer, 401, 'UNAUTHORIZED');
    // An access token is longer than any refresh token: refused by the schema (400) before the lookup.
    const asRefresh = await refresh(t, session.accessToken);
    expect([400, 401]).toContain(asRefresh.status);
    expect(asRefresh.body.dados).toBeUndefined();
  });

  it('a rotated refresh token reused → 401 REFRESH_TOKEN_REUSED and its whole chain is revoked', async () => {
    const user = await t.createUser();
    const first = (await loginAs(t, user)).body.dados;
    const second = (await refresh(t, first.refreshToken)).body.dados;
    const third = (await refresh(t, second.refreshToken)).body.dados;
    const replay = await trpc(t.request, 'auth.refresh', { refreshToken: first.refreshToken });
    expect(expectTrpcError(replay, 401, 'UNAUTHORIZED').data.reason).toBe('REFRESH_TOKEN_REUSED');
    expectError(await refresh(t, third.refreshToken), 401, 'UNAUTHORIZED');
    const rows = await t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(rows.length).toBe(3);
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
  });

  it('brute force on login is stopped by the rate limit: 429, and then even the right password is refused', async () => {
    const limited = appWithRateLimits(t, { authMax: 5 });
    const victim = await t.createUser();
    const guesses = ['123456', 'password', 'qwerty123', 'letmein1', 'senha123'];
    for (const senha of guesses) {
      expectError(
        await limited.request.post('/autenticacao/login').send({ email: victim.email, senha }),
        401,
        'UNAUTHORIZED',
      );
    }
    const right = await limited.request
      .post('/autenticacao/login')
      .send({ email: victim.email, senha: victim.password });
    expect(expectError(right, 429, 'TOO_MANY_REQUESTS').reason).toBe('RATE_LIMITED');
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    // /trpc is the same door, counted against the same limit.
    const viaTrpc = await limited.request
      .post('/trpc/auth.login')
      .send({ email: victim.email, senha: victim.password });
    expect(viaTrpc.status).toBe(429);
    expect(
      await t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, victim.id)),
    ).toHaveLength(0);
  });

  it('credential stuffing (one address, many accounts) is counted per address, not per account', async () => {
    const limited = appWithRateLimits(t, { authMax: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (
          await limited.request
            .post('/autenticacao/login')
            .send({ email: `victim${i}@campus.test`, senha: 'leaked-password' })
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it('a login password over 128 characters is refused before any hashing (no hash-cost amplification)', async () => {
    const res = await login(t, student.email, 'x'.repeat(90_000));
    expect(expectError(res, 400, 'BAD_REQUEST').issues).toEqual([
      expect.objectContaining({ path: 'senha' }),
    ]);
  });
});
