import { mailOutbox, passwordResetTokens } from '@campus/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type TestApp, type TestUser } from '../support/app';
import { login, loginAs, refresh } from '../support/auth';
import { resetTokenOf, startTestAppWithMail, type MailServer } from '../support/mail';

/** Password recovery by e-mail, with a real SMTP server in the test and the job queue running. */
let t: TestApp;
let smtp: MailServer;
beforeAll(async () => {
  ({ t, smtp } = await startTestAppWithMail({ from: 'Campus <nao-responda@campus.test>' }));
});
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});

const forgot = (email: string) => t.request.post('/autenticacao/recuperar-senha').send({ email });
const reset = (token: string, senha: string) =>
  t.request.post('/autenticacao/redefinir-senha').send({ token, senha, confirmacaoSenha: senha });

describe('POST /autenticacao/recuperar-senha → e-mail → POST /autenticacao/redefinir-senha', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await t.createUser();
  });

  it('e-mails a link that sets the password once and ends every session', async () => {
    const session = await loginAs(t, user);
    expect(session.status).toBe(200);
    const res = await forgot(user.email.toUpperCase());
    expect(res.status).toBe(202);
    expect(res.body.mensagem).toMatch(/Se houver uma conta/);

    const mail = await smtp.waitFor(user.email);
    expect(mail.subject).toBe('Redefinição de senha');
    expect(mail.from?.text).toContain('nao-responda@campus.test');
    expect(mail.text).toContain('https://campus.test/redefinir-senha#token=');
    expect(mail.html).toContain('Redefinir senha');
    const token = resetTokenOf(mail);
    // Only the token's hash is stored, and the sent mail's body is erased from the outbox.
    const rows = await t.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(token);
    // The sender marks the row sent once the SMTP server has taken the message, which may be
    // just after the message reached the test.
    const sentRow = async () =>
      (await t.db.select().from(mailOutbox).where(eq(mailOutbox.userId, user.id)))[0];
    await expect
      .poll(async () => (await sentRow())?.sentAt, { timeout: 10_000 })
      .toBeInstanceOf(Date);
    expect(await sentRow()).toMatchObject({ text: null, html: null });

    expect((await reset(token, 'nova-senha-forte-1')).status).toBe(200);
    expectError(await reset(token, 'outra-senha-forte-2'), 400, 'BAD_REQUEST');
    expect((await reset(token, 'outra-senha-forte-2')).body.reason).toBe('RESET_TOKEN_INVALID');

    expectError(await refresh(t, session.body.dados.refreshToken), 401, 'UNAUTHORIZED');
    expectError(await loginAs(t, user), 401, 'UNAUTHORIZED');
    expect((await login(t, user.email, 'nova-senha-forte-1')).status).toBe(200);
  });

  it('answers 202 for an unknown e-mail and sends nothing', async () => {
    const res = await forgot('ninguem-aqui@campus.test');
    expect(res.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.to('ninguem-aqui@campus.test')).toHaveLength(0);
  });

  it('a newer link retires the older one; an expired link is refused', async () => {
    const other = await t.createUser();
    await forgot(other.email);
    const first = resetTokenOf(await smtp.waitFor(other.email));
    await forgot(other.email);
    const second = resetTokenOf(await smtp.waitFor(other.email, (m) => !m.text?.includes(first)));
    expect((await reset(first, 'nova-senha-forte-1')).body.reason).toBe('RESET_TOKEN_INVALID');
    await t.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.userId, other.id));
    expect((await reset(second, 'nova-senha-forte-1')).body.reason).toBe('RESET_TOKEN_INVALID');
  });

  it('mails written one right after another each go at once, not at the next scheduled drain', async () => {
    // Each request comes just after the previous mail was sent: a wake-up throttled away (one a
    // second, as before) left the next mail to the drain of every minute.
    for (let i = 0; i < 5; i++) {
      const user = await t.createUser();
      expect((await forgot(user.email)).status).toBe(202);
      await smtp.waitFor(user.email, () => true, 10_000);
    }
  });

  it('sends at most 3 reset messages to one address an hour; every request still answers 202', async () => {
    const target = await t.createUser();
    const answers = await Promise.all(Array.from({ length: 6 }, () => forgot(target.email)));
    expect(answers.map((res) => res.status)).toEqual(Array(6).fill(202));
    expect(new Set(answers.map((res) => JSON.stringify(res.body))).size).toBe(1);
    const queued = await t.db.select().from(mailOutbox).where(eq(mailOutbox.userId, target.id));
    expect(queued).toHaveLength(3);
    const links = await t.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, target.id));
    expect(links).toHaveLength(3);
    // The three are delivered, and nothing more reaches the address.
    await smtp.waitFor(target.email, () => smtp.to(target.email).length === 3);
    expect((await forgot(target.email)).status).toBe(202);
    expect(
      await t.db.select().from(mailOutbox).where(eq(mailOutbox.userId, target.id)),
    ).toHaveLength(3);
  });

  it('refuses a bad body with the field issues', async () => {
    const res = await t.request
      .post('/autenticacao/redefinir-senha')
      .send({ token: 'x', senha: 'curta', confirmacaoSenha: 'outra' });
    const body = expectError(res, 400, 'BAD_REQUEST');
    expect(body.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'senha' })]),
    );
    expectError(await forgot('não é e-mail'), 400, 'BAD_REQUEST');
  });

  it('a mail server that is down delays the mail and loses none', async () => {
    const user2 = await t.createUser();
    await smtp.stop();
    expect((await forgot(user2.email)).status).toBe(202);
    // The first try fails and is recorded; the message waits in the outbox.
    await expect
      .poll(
        async () =>
          (await t.db.select().from(mailOutbox).where(eq(mailOutbox.userId, user2.id)))[0]
            ?.attempts,
        { timeout: 10_000, interval: 200 },
      )
      .toBeGreaterThanOrEqual(1);
    const [waiting] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.userId, user2.id));
    expect(waiting!.sentAt).toBeNull();
    expect(waiting!.lastError).toBeTruthy();
    await smtp.start();
    const mail = await smtp.waitFor(user2.email, () => true, 30_000);
    expect((await reset(resetTokenOf(mail), 'nova-senha-forte-1')).status).toBe(200);
  }, 45_000);
});
