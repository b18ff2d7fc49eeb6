import { eq } from 'drizzle-orm';
import jwt from 'jsonwebtoken';
import { refreshTokens, users } from '@campus/core';
import { describe, expect, it } from 'vitest';
import { expectError, testAuthConfig, type TestApp, onTestApp } from './support/app';
import { login, loginAs, logout, refresh, meAnswersWithinASecond } from './support/auth';

let t: TestApp;
onTestApp((app) => (t = app));

describe('POST /autenticacao/login', () => {
  it('returns tokens and the account for the right password, e-mail in any case', async () => {
    const user = await t.createUser();
    const res = await login(t, user.email.toUpperCase(), user.password);
    expect(res.status).toBe(200);
    expect(res.body.mensagem).toEqual(expect.any(String));
    expect(res.body.dados).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresIn: testAuthConfig.accessTokenTtl,
      usuario: {
        id: user.id,
        nome: user.nome,
        nickname: user.nickname,
        email: user.email,
        perfil: 'ALUNO',
        status: 'ATIVO',
      },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|scrypt\$/);
    const claims = jwt.decode(res.body.dados.accessToken, { complete: true })!;
    expect(claims.header.alg).toBe('HS256');
    expect(claims.payload).toMatchObject({
      sub: user.id,
      perfil: 'ALUNO',
      nickname: user.nickname,
      iss: 'campus-api',
    });
  });

  it('answers a wrong password and an unknown e-mail with the same 401', async () => {
    const user = await t.createUser();
    const wrong = expectError(await login(t, user.email, 'not-the-password'), 401, 'UNAUTHORIZED');
    const unknown = expectError(
      await login(t, 'nobody@campus.test', 'whatever-123'),
      401,
      'UNAUTHORIZED',
    );
    expect(wrong.message).toBe(unknown.message);
    expect(wrong.reason).toBe('INVALID_CREDENTIALS');
  });

  it.each([
    ['INATIVO', 'ACCOUNT_NOT_ACTIVE'],
    ['PENDENTE', 'ACCOUNT_PENDING'],
  ] as const)('refuses a %s account with 403 %s', async (status, reason) => {
    const user = await t.createUser({ status });
    const body = expectError(await loginAs(t, user), 403, 'FORBIDDEN');
    expect(body.reason).toBe(reason);
  });

  it('rejects a malformed body field by field', async () => {
    const body = expectError(
      await t.request.post('/autenticacao/login').send({ email: 'nope' }),
      400,
      'BAD_REQUEST',
    );
    expect(body.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'email' }),
        expect.objectContaining({ path: 'senha' }),
      ]),
    );
  });
});

describe('POST /autenticacao/atualizar-token', () => {
  it('rotates: the new pair works, the old refresh token stops working', async () => {
    const user = await t.createUser();
    const first = (await loginAs(t, user)).body.dados;
    const second = await refresh(t, first.refreshToken);
    expect(second.status).toBe(200);
    expect(second.body.dados.refreshToken).not.toBe(first.refreshToken);
    expect(second.body.dados.usuario.id).toBe(user.id);
    const me = await t.request
      .get('/autenticacao/usuario-atual')
      .set('Authorization', `Bearer ${second.body.dados.accessToken}`);
    expect(me.status).toBe(200);
    const third = await refresh(t, second.body.dados.refreshToken);
    expect(third.status).toBe(200);
  });

  it('reuse of a rotated token revokes the whole chain', async () => {
    const user = await t.createUser();
    const first = (await loginAs(t, user)).body.dados;
    const second = (await refresh(t, first.refreshToken)).body.dados;
    // The owner goes on (so this is no lost answer: see refresh-lost-answer.test.ts).
    const third = (await refresh(t, second.refreshToken)).body.dados;
    const replay = await refresh(t, first.refreshToken);
    expect(expectError(replay, 401, 'UNAUTHORIZED').reason).toBe('REFRESH_TOKEN_REUSED');
    // The legitimate successor is revoked too: the thief and the owner both have to log in again.
    const successor = await refresh(t, third.refreshToken);
    expectError(successor, 401, 'UNAUTHORIZED');
    const live = await t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((row) => row.revokedAt !== null)).toBe(true);
  });

  it('refreshes racing with one token: exactly one successor stays live', async () => {
    const user = await t.createUser();
    const { refreshToken } = (await loginAs(t, user)).body.dados;
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.request.post('/autenticacao/atualizar-token').send({ refreshToken }),
      ),
    );
    // Each one after the first is taken for a lost answer and replaces the unused successor.
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const rows = await t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(rows.filter((row) => row.revokedAt === null)).toHaveLength(1);
  });

  it('refuses an unknown token, and a valid one after the account is blocked', async () => {
    expectError(await refresh(t, 'unknown'), 401, 'UNAUTHORIZED');
    const user = await t.createUser();
    const { refreshToken } = (await loginAs(t, user)).body.dados;
    await t.db.update(users).set({ status: 'INATIVO' }).where(eq(users.id, user.id));
    expectError(
      await t.request.post('/autenticacao/atualizar-token').send({ refreshToken }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('400 without a refreshToken', async () => {
    expectError(await t.request.post('/autenticacao/atualizar-token').send({}), 400, 'BAD_REQUEST');
  });
});

describe('POST /autenticacao/sair', () => {
  it('204 with no body; that refresh token stops working', async () => {
    const user = await t.createUser();
    const session = (await loginAs(t, user)).body.dados;
    const res = await t.request
      .post('/autenticacao/sair')
      .set('Authorization', `Bearer ${session.accessToken}`)
      .send({ refreshToken: session.refreshToken });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await refresh(t, session.refreshToken), 401, 'UNAUTHORIZED');
  });

  it('does not revoke another user’s refresh token', async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const session = (await loginAs(t, owner)).body.dados;
    await logout(t, other, session.refreshToken).expect(204);
    await refresh(t, session.refreshToken).expect(200);
  });

  it('401 without an access token', async () => {
    expectError(
      await t.request.post('/autenticacao/sair').send({ refreshToken: 'x' }),
      401,
      'UNAUTHORIZED',
    );
  });
});

describe('GET /autenticacao/usuario-atual and access tokens', () => {
  it('returns the caller', async () => {
    const user = await t.createUser({ perfil: 'PROFESSOR' });
    const res = await t.request.get('/autenticacao/usuario-atual').set(user.auth);
    expect(res.status).toBe(200);
    expect(res.body.dados).toEqual({
      id: user.id,
      nome: user.nome,
      nickname: user.nickname,
      email: user.email,
      perfil: 'PROFESSOR',
      status: 'ATIVO',
      avatarUrl: null,
    });
  });

  it('refuses a live token within a second when the account becomes INATIVO', async () => {
    const user = await t.createUser();
    await t.request.get('/autenticacao/usuario-atual').set(user.auth).expect(200);
    await t.db.update(users).set({ status: 'INATIVO' }).where(eq(users.id, user.id));
    await meAnswersWithinASecond(t, user.token, 401);
    const body = expectError(
      await t.request.get('/autenticacao/usuario-atual').set(user.auth),
      401,
      'UNAUTHORIZED',
    );
    expect(body.reason).toBe('ACCOUNT_NOT_ACTIVE');
  });

  it('refuses a live token within a second when the account is deleted', async () => {
    const user = await t.createUser();
    await t.request.get('/autenticacao/usuario-atual').set(user.auth).expect(200);
    await t.db.delete(users).where(eq(users.id, user.id));
    await meAnswersWithinASecond(t, user.token, 401);
    expectError(
      await t.request.get('/autenticacao/usuario-atual').set(user.auth),
      401,
      'UNAUTHORIZED',
    );
  });

  it('refuses missing, malformed, unsigned, wrongly signed, tampered and expired tokens', async () => {
    const user = await t.createUser();
    const payload = { perfil: 'ADMIN', nickname: user.nickname };
    const opts = { subject: user.id, issuer: 'campus-api' };
    const [header, body] = user.token.split('.');
    const tampered = Buffer.from(
      JSON.stringify({ ...(jwt.decode(user.token) as object), perfil: 'ADMIN' }),
    ).toString('base64url');
    const tokens = [
      undefined,
      'Bearer',
      'Basic abc',
      `Bearer not-a-jwt`,
      `Bearer ${jwt.sign(payload, '', { ...opts, algorithm: 'none' })}`,
      `Bearer ${jwt.sign(payload, 'another-secret-another-secret-another', { ...opts, algorithm: 'HS256' })}`,
      `Bearer ${jwt.sign(payload, testAuthConfig.jwtSecret, { ...opts, algorithm: 'HS512' })}`,
      `Bearer ${header}.${tampered}.${user.token.split('.')[2]}`,
      `Bearer ${jwt.sign({ ...payload, exp: Math.floor(Date.now() / 1000) - 10 }, testAuthConfig.jwtSecret, opts)}`,
      `Bearer ${jwt.sign(payload, testAuthConfig.jwtSecret, { subject: user.id, issuer: 'someone-else' })}`,
    ];
    // The genuine token carries these claims and is accepted; each forgery above changes one thing.
    expect(JSON.parse(Buffer.from(body!, 'base64url').toString())).toEqual({
      sub: user.id,
      iss: 'campus-api',
      perfil: 'ALUNO',
      nickname: user.nickname,
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
    const claims = jwt.decode(user.token) as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(testAuthConfig.accessTokenTtl);
    expect((await t.request.get('/autenticacao/usuario-atual').set(user.auth)).status).toBe(200);
    for (const authorization of tokens) {
      const req = t.request.get('/autenticacao/usuario-atual');
      if (authorization) req.set('Authorization', authorization);
      expectError(await req, 401, 'UNAUTHORIZED');
    }
  });
});
