import { expect } from 'vitest';
import type { TestApp, TestUser } from './app';

/** The session calls of /autenticacao on one test app (each a supertest request, to await or chain). */

export const login = (t: TestApp, email: string, senha: string) =>
  t.request.post('/autenticacao/login').send({ email, senha });

export const loginAs = (t: TestApp, user: TestUser) => login(t, user.email, user.password);

export const refresh = (t: TestApp, refreshToken: string) =>
  t.request.post('/autenticacao/atualizar-token').send({ refreshToken });

export const logout = (t: TestApp, user: TestUser, refreshToken: string) =>
  t.request.post('/autenticacao/sair').set(user.auth).send({ refreshToken });

export const me = (t: TestApp, accessToken: string) =>
  t.request.get('/autenticacao/usuario-atual').set('Authorization', `Bearer ${accessToken}`);

/**
 * Waits until `accessToken` is answered `status` (401 once refused, 200 once let in again) on
 * this app. A change of an account reaches the process's account cache as an event
 * (LISTEN/NOTIFY), which may arrive just after the next request: within a second
 * (docs/decisions.md, "Authentication without a read per request").
 */
export const meAnswersWithinASecond = (t: TestApp, accessToken: string, status: 200 | 401) =>
  expect
    .poll(async () => (await me(t, accessToken)).status, { timeout: 1000, interval: 20 })
    .toBe(status);
