import { createHash, randomBytes } from 'node:crypto';
import { passwordResetTokens } from '@campus/core';
import { describe, it } from 'vitest';
import { createGroup } from '../support/groups';
import { example, type Walk } from '../support/openapi-walk';

/**
 * Teacher sign-up, password recovery and change, profile, export and deletion
 * (docs/contract/accounts.md).
 */
export function accountLifecycleWalk(w: Walk) {
  const { call } = w;

  describe('account lifecycle', () => {
    it('teacher sign-up, password recovery and reset', async () => {
      const body = example('POST', '/autenticacao/cadastro/professor');
      await call('POST', '/autenticacao/cadastro/professor', 201, { body });
      await call('POST', '/autenticacao/cadastro/professor', 409, { body });
      await call('POST', '/autenticacao/login', 403, {
        body: { email: body.email, senha: body.senha },
      });
      await call('POST', '/autenticacao/recuperar-senha', 202, { body: { email: w.bia.email } });
      await call('POST', '/autenticacao/recuperar-senha', 400, { body: { email: 'x' } });
      await call('POST', '/autenticacao/redefinir-senha', 400, {
        body: example('POST', '/autenticacao/redefinir-senha'),
      });
      const token = randomBytes(32).toString('base64url');
      const user = await w.t.createUser();
      await w.t.db.insert(passwordResetTokens).values({
        userId: user.id,
        tokenHash: createHash('sha256').update(token).digest('hex'),
        expiresAt: new Date(Date.now() + 60_000),
      });
      await call('POST', '/autenticacao/redefinir-senha', 200, {
        body: { token, senha: 'nova-senha-forte-1', confirmacaoSenha: 'nova-senha-forte-1' },
      });
    });

    it('password change, profile, export and deletion', async () => {
      // A change ends the sessions, this token's too once the clock passes a second: the calls
      // after it are another user's.
      const changing = await w.t.createUser();
      await call('PATCH', '/autenticacao/senha', 403, {
        as: changing,
        body: { senhaAtual: 'nao-e-a-senha-1', novaSenha: 'nova-senha-forte-1' },
      });
      await call('PATCH', '/autenticacao/senha', 204, {
        as: changing,
        body: { senhaAtual: changing.password, novaSenha: changing.password },
      });
      const user = await w.t.createUser();
      await call('PATCH', '/autenticacao/usuario-atual', 200, {
        as: user,
        body: example('PATCH', '/autenticacao/usuario-atual'),
      });
      await call('PATCH', '/autenticacao/usuario-atual', 400, { as: user, body: {} });
      await call('GET', '/autenticacao/meus-dados', 200, { as: user });
      await call('GET', '/autenticacao/meus-dados', 401, {});
      await createGroup(w.t, user);
      await call('DELETE', '/autenticacao/conta', 409, {
        as: user,
        body: { senha: user.password },
      });
      const leaving = await w.t.createUser();
      await call('DELETE', '/autenticacao/conta', 403, {
        as: leaving,
        body: { senha: 'nao-e-a-senha-1' },
      });
      await call('DELETE', '/autenticacao/conta', 204, {
        as: leaving,
        body: { senha: leaving.password },
      });
    });
  });
}
