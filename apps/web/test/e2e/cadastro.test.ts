import { expect, it } from 'vitest';
import {
  newPage,
  present,
  screenshot,
  uniqueStudent,
  visible,
  accountLink,
} from './support/browser';
import { describeE2e } from './support/suite';

describeE2e('cadastro de estudante', ({ baseUrl, browser, register }) => {
  it('a first-time visitor registers with every field, sees availability and the API’s field errors, and lands on the feed', async () => {
    const taken = await register('ocupado');
    const student = uniqueStudent('novo');
    const { page, context } = await newPage(browser(), baseUrl);

    // A first visit goes to the login page, which offers the registration.
    await page.goto('/');
    await page.waitForURL('**/entrar');
    await visible(page.getByRole('heading', { name: 'Entrar', level: 1 }));
    await screenshot(page, 'entrar');
    await page.getByRole('link', { name: 'Criar conta de estudante' }).click();
    await page.waitForURL('**/cadastro');
    await visible(page.getByRole('heading', { name: 'Criar conta de estudante' }));
    await screenshot(page, 'cadastro');

    const field = (label: string) => page.getByLabel(label, { exact: true });
    await field('Nome completo').fill(student.nome);

    // Live availability of the nickname and the e-mail.
    await field('Nickname').fill(taken.nickname);
    await visible(page.getByText('Este nickname já está em uso.'));
    await field('Nickname').fill(student.nickname);
    await visible(page.getByText('Nickname disponível.'));
    await field('E-mail').fill(taken.email);
    await visible(page.getByText('Este e-mail já está cadastrado.'));

    await field('Senha').fill(student.senha);
    await field('Confirme a senha').fill('outra-senha-qualquer');
    await field('Data de nascimento').fill('2002-08-30');
    await field('Nacionalidade').fill('Brasileira');

    // The city list follows the state.
    const cidade = field('Cidade');
    expect(await cidade.isDisabled()).toBe(true);
    await field('Estado').selectOption('MG');
    await present(cidade.locator('option', { hasText: 'Belo Horizonte' }));
    await field('Estado').selectOption('PE');
    await present(cidade.locator('option', { hasText: 'Recife' }));
    expect(await cidade.locator('option', { hasText: 'Belo Horizonte' }).count()).toBe(0);
    await cidade.selectOption('Recife');

    await field('Escolaridade').selectOption('Graduação');
    // Suggestions come from the helper lists; free text is accepted.
    expect(await page.locator('#lista-instituicoes option').count()).toBeGreaterThan(100);
    await field('Instituição').fill('Universidade Federal de Pernambuco (UFPE)');
    await field('Curso').fill('Ciência da Computação');
    await field('Período').fill('5º período');

    // 1. The API's own rule, checked before sending, refuses the confirmation: beside that field.
    await page.getByRole('button', { name: 'Criar conta' }).click();
    await visible(page.getByRole('alert').filter({ hasText: 'Corrija os campos indicados.' }));
    const confirmation = field('Confirme a senha');
    expect(await confirmation.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await confirmation.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy.split(' ').at(-1)}"]`).textContent()).toContain(
      'deve ser igual à senha',
    );
    await screenshot(page, 'cadastro-erros');

    // 2. The e-mail is taken: the 409 shows beside the e-mail.
    await confirmation.fill(student.senha);
    await page.getByRole('button', { name: 'Criar conta' }).click();
    await visible(
      page.getByText('Este e-mail já está cadastrado.').and(page.locator('.field__error')),
    );
    expect(await field('E-mail').getAttribute('aria-invalid')).toBe('true');

    // 3. Fixed: registered, logged in, on the feed.
    await field('E-mail').fill(student.email);
    await visible(page.getByText('E-mail disponível.'));
    await page.getByRole('button', { name: 'Criar conta' }).click();
    await page.waitForURL('**/feed');
    await visible(page.getByText(`Bem-vindo(a) ao Campus, ${student.nome}!`));
    await visible(accountLink(page, student.nickname));
    await screenshot(page, 'feed-bem-vindo');
    await context.close();
  });

  it('fits a phone-sized screen', async () => {
    const { page, context } = await newPage(browser(), baseUrl, { phone: true });
    await page.goto('/cadastro');
    await visible(page.getByRole('heading', { name: 'Criar conta de estudante' }));
    // Nothing overflows sideways.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'cadastro-celular');
    await context.close();
  });
});
