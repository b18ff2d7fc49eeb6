import { signAccessToken } from '@campus/core';
import { describe, it } from 'vitest';
import { testAuthConfig } from '../support/app';
import { UNKNOWN, example } from '../support/openapi-walk';
import type { Walk } from '../support/openapi-walk';

/** Authentication, registration and its lists, examples, administration (a part of the walk in openapi-responses.test.ts). */
export function accountsWalk(w: Walk) {
  const { call } = w;

  describe('authentication', () => {
    it('login, refresh, current user, logout', async () => {
      const login = await call('POST', '/autenticacao/login', 200, {
        body: { email: w.ana.email, senha: w.ana.password },
      });
      await call('POST', '/autenticacao/login', 401, {
        body: { email: w.ana.email, senha: 'wrong-password' },
      });
      await call('POST', '/autenticacao/login', 400, { body: { email: 'not an e-mail' } });
      const blocked = await w.t.createUser({ status: 'INATIVO' });
      await call('POST', '/autenticacao/login', 403, {
        body: { email: blocked.email, senha: blocked.password },
      });

      const { refreshToken } = login.body.dados as { refreshToken: string };
      const refreshed = await call('POST', '/autenticacao/atualizar-token', 200, {
        body: { refreshToken },
      });
      await call('POST', '/autenticacao/atualizar-token', 401, {
        body: { refreshToken: 'not-a-token-we-issued' },
      });
      await call('POST', '/autenticacao/atualizar-token', 400, { body: {} });

      await call('GET', '/autenticacao/usuario-atual', 200, { as: w.ana });
      await call('GET', '/autenticacao/usuario-atual', 401, {});
      const expired = signAccessToken({ ...testAuthConfig, accessTokenTtl: -60 }, w.ana);
      await call('GET', '/autenticacao/usuario-atual', 401, {
        as: { auth: { Authorization: `Bearer ${expired}` } },
      });
      await call('GET', '/autenticacao/usuario-atual', 401, { as: blocked });

      const next = (refreshed.body.dados as { refreshToken: string }).refreshToken;
      await call('POST', '/autenticacao/sair', 204, { as: w.ana, body: { refreshToken: next } });
      await call('POST', '/autenticacao/sair', 401, { body: { refreshToken: next } });
      await call('POST', '/autenticacao/sair', 400, { as: w.ana, body: {} });
    });
  });

  describe('registration and its lists', () => {
    it('registers with the documented example, then refuses it as taken', async () => {
      const body = example('POST', '/autenticacao/cadastro');
      await call('POST', '/autenticacao/cadastro', 201, { body });
      await call('POST', '/autenticacao/cadastro', 409, { body });
      await call('POST', '/autenticacao/cadastro', 400, {
        body: { ...body, dataNascimento: '0604-01-01' },
      });
    });

    it('availability checks', async () => {
      await call('GET', '/autenticacao/alunos/nickname-disponivel?nickname=livre_123', 200);
      await call('GET', '/autenticacao/alunos/nickname-disponivel?nickname=X', 400);
      await call('GET', '/autenticacao/alunos/email-disponivel?email=livre%40campus.test', 200);
      await call('GET', '/autenticacao/alunos/email-disponivel?email=nope', 400);
    });

    it('static lists (304 on If-None-Match: openapi-protocol)', async () => {
      for (const path of [
        '/autenticacao/alunos/nacionalidades',
        '/autenticacao/alunos/opcoes-academicas',
        '/autenticacao/alunos/localidades/estados',
        '/autenticacao/alunos/localidades/estados/sp/cidades',
      ])
        await call('GET', path, 200);
      await call('GET', '/autenticacao/alunos/localidades/estados/XX/cidades', 400);
    });
  });

  describe('examples', () => {
    it('create, list, read', async () => {
      const body = example('POST', '/exemplos');
      const created = await call('POST', '/exemplos', 201, { as: w.ana, body });
      await call('POST', '/exemplos', 400, { as: w.ana, body: { nome: 'x' } });
      await call('POST', '/exemplos', 401, { body });

      await call('GET', '/exemplos?page=1&limit=5', 200, { as: w.ana });
      await call('GET', '/exemplos/', 200, { as: w.ana });
      await call('GET', '/exemplos?page=0', 400, { as: w.ana });
      await call('GET', '/exemplos', 401);
      const id = (created.body.dados as { id: string }).id;
      await call('GET', `/exemplos/${id}`, 200, { as: w.ana });
      await call('GET', `/exemplos/${UNKNOWN}`, 404, { as: w.ana });
    });
  });

  describe('administration', () => {
    it('list, read, change status', async () => {
      await call('GET', '/admin/usuarios?status=ACTIVE&limit=2', 200, { as: w.admin });
      await call('GET', '/admin/usuarios', 403, { as: w.ana });
      await call('GET', '/admin/usuarios?status=NOPE', 400, { as: w.admin });
      await call('GET', `/admin/usuarios/${w.ana.id}`, 200, { as: w.admin });
      await call('GET', `/admin/usuarios/${UNKNOWN}`, 404, { as: w.admin });
      const target = await w.t.createUser({ status: 'PENDENTE' });
      const body = example('PATCH', '/admin/usuarios/{id}/status');
      await call('PATCH', `/admin/usuarios/${target.id}/status`, 200, { as: w.admin, body });
      await call('PATCH', `/admin/usuarios/${w.admin.id}/status`, 403, { as: w.admin, body });
      await call('PATCH', `/admin/usuarios/${target.id}/status`, 400, {
        as: w.admin,
        body: { status: 'X' },
      });
      await call('PATCH', `/admin/usuarios/${UNKNOWN}/status`, 404, { as: w.admin, body });
    });
  });
}
