import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { loginViaUi, newPage, screenshot, visible, accountLink } from './support/browser';
import { describeE2e } from './support/suite';

const e2e = inject('e2e');

/** "Esqueci minha senha" → the e-mailed link (a real SMTP server here) → a new password → login. */
describeE2e('recuperar a senha', ({ baseUrl, browser, register }) => {
  const received: ParsedMail[] = [];
  let smtp: SMTPServer;

  beforeAll(async () => {
    if (e2e.skip) return;
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        simpleParser(stream).then((mail) => {
          received.push(mail);
          callback();
        }, callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(e2e.smtpPort, '127.0.0.1', resolve));
  });
  afterAll(() => (smtp ? new Promise<void>((resolve) => smtp.close(() => resolve())) : undefined));

  async function mailTo(email: string): Promise<ParsedMail> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = received.find((mail) => JSON.stringify(mail.to ?? '').includes(email));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no e-mail to ${email}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('sends a link by e-mail that sets a new password, which then signs in', async () => {
    const student = await register('esqueceu');
    const { page, context } = await newPage(browser(), baseUrl);

    await page.goto('/entrar');
    await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
    await visible(page.getByRole('heading', { name: 'Esqueci minha senha', level: 1 }));
    await page.getByLabel('E-mail').fill(student.email);
    await page.getByRole('button', { name: 'Enviar link' }).click();
    await visible(
      page.getByRole('status').filter({ hasText: 'Se houver uma conta com este e-mail' }),
    );
    await screenshot(page, 'esqueci-senha-enviado');

    const mail = await mailTo(student.email);
    expect(mail.subject).toBe('Redefinição de senha');
    const link = /(http\S+\/redefinir-senha#token=[A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
    expect(link, mail.text).toBeTruthy();
    expect(link!.startsWith(baseUrl)).toBe(true);

    await page.goto(link!);
    await visible(page.getByRole('heading', { name: 'Nova senha', level: 1 }));
    await page.getByLabel('Nova senha', { exact: true }).fill('nova-senha-e2e-456');
    await page.getByLabel('Confirme a nova senha').fill('nova-senha-e2e-456');
    await page.getByRole('button', { name: 'Salvar nova senha' }).click();
    await page.waitForURL('**/entrar?senha=redefinida');
    await visible(page.getByText('Senha redefinida! Entre com a nova senha.'));
    await screenshot(page, 'senha-redefinida');

    // The link works once.
    await page.goto(link!);
    await page.getByLabel('Nova senha', { exact: true }).fill('outra-senha-e2e-789');
    await page.getByLabel('Confirme a nova senha').fill('outra-senha-e2e-789');
    await page.getByRole('button', { name: 'Salvar nova senha' }).click();
    await visible(page.getByRole('alert').filter({ hasText: 'link de redefinição é inválido' }));

    // The old password no longer works; the new one does.
    await page.goto('/entrar');
    await page.getByLabel('E-mail').fill(student.email);
    await page.getByLabel('Senha', { exact: true }).fill(student.senha);
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();
    await visible(page.getByRole('alert').filter({ hasText: 'E-mail ou senha inválidos.' }));
    await loginViaUi(page, student.email, 'nova-senha-e2e-456');
    await visible(accountLink(page, student.nickname));
    await context.close();
  });
});
