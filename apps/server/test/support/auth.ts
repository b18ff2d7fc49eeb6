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
