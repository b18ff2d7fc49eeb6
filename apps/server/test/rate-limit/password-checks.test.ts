import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import {
  createRateLimitService,
  createServices,
  DEFAULT_PASSWORD_COST,
  hashPassword,
  users,
} from '@campus/core';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { defaultPasswordConcurrency, passwordWork } from '../../src/http/password-work';
import { batchedLimiter, exactLimiter } from '../../src/rate-limit/limiter';
import { postgresStore } from '../../src/rate-limit/store';
import { expectError, startTestApp, testAuthConfig, type TestApp } from '../support/app';

/**
 * Password checks are a bounded resource (docs/operations.md, "Password checks"): a flood of wrong
 * logins, each within its address's limit, is refused with 503 SERVER_BUSY past the bound while a
 * login from elsewhere still gets in; every call that checks a password counts against its
 * account, however many arrive at once.
 */

let t: TestApp;
const servers: Server[] = [];
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await t.close();
});

/** An app as `start.ts` builds it: client addresses from X-Forwarded-For (the proxy is loopback). */
async function limitedApp(options: { passwordCost: number; authMax: number; accountMax: number }) {
  const name = randomBytes(4).toString('hex');
  const store = postgresStore(createRateLimitService(t.db));
  const concurrency = defaultPasswordConcurrency();
  const app = createApp({
    services: createServices(t.db, { ...testAuthConfig, passwordCost: options.passwordCost }),
    logger: pino({ level: 'silent' }),
    ping: async () => true,
    trustProxy: 'loopback',
    // A deadline, but not the production 10 s: what is checked here is the password bound, and
    // on a machine busy with every other suite a flooded login once outlived 10 s in the database
    // work before its check (answered 503 OUTCOME_UNKNOWN, not SERVER_BUSY).
    requestTimeoutMs: 60_000,
    rateLimits: {
      global: batchedLimiter(store, `g_${name}`, 1e9, 60, () => {}),
      auth: exactLimiter(store, `a_${name}`, options.authMax, 60),
      account: exactLimiter(store, `c_${name}`, options.accountMax, 900),
    },
    passwordWork: passwordWork({ concurrency, queueLength: 4 * concurrency }),
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(server);
  return supertest(server);
}

describe('password checks under a flood', () => {
  it('refuses the excess at once as busy (not the database), and a real login still gets in', async () => {
    // OWASP's cost, as in production: each check takes a core for a while.
    const request = await limitedApp({
      passwordCost: DEFAULT_PASSWORD_COST,
      authMax: 20,
      accountMax: 10,
    });
    const user = await t.createUser();
    await t.db
      .update(users)
      .set({ passwordHash: await hashPassword(user.password, DEFAULT_PASSWORD_COST) })
      .where(eq(users.id, user.id));

    // Four addresses, each sending the 20 wrong logins its limit allows, all at once.
    const flood = ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'].flatMap((address) =>
      Array.from({ length: 20 }, (_, i) =>
        request
          .post('/autenticacao/login')
          .set('X-Forwarded-For', address)
          .send({ email: `guess_${address}_${i}@campus.test`, senha: 'not-the-password' }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const real = await request
      .post('/autenticacao/login')
      .set('X-Forwarded-For', '10.0.0.9')
      .send({ email: user.email, senha: user.password });
    const answers = await Promise.all(flood);

    expect(real.status).toBe(200);
    expect((real.body as { dados: { accessToken: string } }).dados.accessToken).toBeTruthy();
    const busy = answers.filter((answer) => answer.status === 503);
    expect(answers.every((answer) => [401, 503].includes(answer.status))).toBe(true);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(expectError(answer, 503, 'SERVICE_UNAVAILABLE').reason).toBe('SERVER_BUSY');
      expect(answer.body.message).not.toMatch(/banco de dados/i);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
  }, 120_000);
});

describe('password checks per account', () => {
  it('limits the re-checks of a signed-in user, however many arrive at once', async () => {
    const request = await limitedApp({ passwordCost: 10, authMax: 1000, accountMax: 10 });
    const user = await t.createUser();
    const wrong = { senhaAtual: 'not-the-password', novaSenha: 'nova-senha-segura-1' };
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        request.patch('/autenticacao/senha').set(user.auth).send(wrong),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    // Ten checks ran (each a wrong password); the other fifty were refused before any check.
    expect(statuses.filter((status) => status === 403)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(expectError(refused, 429, 'TOO_MANY_REQUESTS').reason).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // The same account's counter: the deletion and the login are refused too, the right password
    // included, until the window ends; the account is untouched.
    expectError(
      await request.delete('/autenticacao/conta').set(user.auth).send({ senha: user.password }),
      429,
      'TOO_MANY_REQUESTS',
    );
    expectError(
      await request
        .post('/autenticacao/login')
        .send({ email: user.email.toUpperCase(), senha: user.password }),
      429,
      'TOO_MANY_REQUESTS',
    );
    const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.id, user.id));
    expect(row).toBeDefined();
  });

  it('counts the password checks in the per-address limit too', async () => {
    const request = await limitedApp({ passwordCost: 10, authMax: 3, accountMax: 1000 });
    const [a, b] = await t.createUsers({}, {});
    const wrong = { senhaAtual: 'not-the-password', novaSenha: 'nova-senha-segura-1' };
    await request.patch('/autenticacao/senha').set(a.auth).send(wrong).expect(403);
    await request
      .delete('/autenticacao/conta')
      .set(b.auth)
      .send({ senha: 'wrong-one' })
      .expect(403);
    await request.post('/autenticacao/login').send({ email: a.email, senha: 'x' }).expect(401);
    expectError(
      await request.patch('/autenticacao/senha').set(b.auth).send(wrong),
      429,
      'TOO_MANY_REQUESTS',
    );
  });
});
