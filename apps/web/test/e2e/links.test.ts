import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  apiCall,
  apiLogin,
  newPage,
  postViaApi,
  present,
  screenshot,
  uniqueStudent,
  visible,
  type Student,
} from './support/browser';
import { describeE2e } from './support/suite';

/** Fills the student sign-up form (the city list follows the state) and sends it. */
async function signUp(page: Page, student: Student) {
  const field = (label: string) => page.getByLabel(label, { exact: true });
  await field('Nome completo').fill(student.nome);
  await field('Nickname').fill(student.nickname);
  await field('E-mail').fill(student.email);
  await field('Senha').fill(student.senha);
  await field('Confirme a senha').fill(student.senha);
  await field('Data de nascimento').fill('2003-04-12');
  await field('Nacionalidade').fill('Brasileira');
  await field('Estado').selectOption('SP');
  await present(field('Cidade').locator('option', { hasText: 'Campinas' }));
  await field('Cidade').selectOption('Campinas');
  await field('Escolaridade').selectOption('Graduação');
  await field('Instituição').fill('Universidade Estadual de Campinas (UNICAMP)');
  await field('Curso').fill('Física');
  await field('Período').fill('2º período');
  await page.getByRole('button', { name: 'Criar conta' }).click();
}

describeE2e('links compartilhados', ({ baseUrl, browser, register }) => {
  /** A match of a registered organiser, created through the API: its address. */
  async function sharedMatch(title: string) {
    const organiser = await register('anfitria');
    const { accessToken, usuario } = await apiLogin(baseUrl, organiser);
    const at = '2031-05-02T22:00:00.000Z';
    const body = { userId: usuario.id, title, maxPlayers: 10, MatchDate: at, location: 'Quadra' };
    const match = await apiCall(baseUrl, accessToken, 'POST', '/match', body, 201);
    return `/partidas/${String(match!.id)}`;
  }

  it('a match link opened logged out survives the sign-up and lands on the match', async () => {
    const title = `Vôlei de sábado ${Date.now().toString(36)}`;
    const matchPath = await sharedMatch(title);
    const { page, context } = await newPage(browser(), baseUrl, { phone: true });

    await page.goto(matchPath);
    await page.waitForURL(`**/entrar?next=${encodeURIComponent(matchPath)}`);
    // The login page says why the visitor is there.
    await visible(page.getByText('Entre para ver esta partida.'));
    await screenshot(page, 'entrar-para-ver-partida');
    await page.getByRole('link', { name: 'Criar conta de estudante' }).click();
    await page.waitForURL(`**/cadastro?next=${encodeURIComponent(matchPath)}`);
    await visible(page.getByText('Crie sua conta para ver esta partida.'));

    await signUp(page, uniqueStudent('convidada'));
    await page.waitForURL(`**${matchPath}`);
    await visible(page.getByRole('heading', { name: title, level: 1 }));
    await screenshot(page, 'partida-apos-cadastro');
    await context.close();
  });

  it('a post link survives the login; a foreign address in ?next= is not followed', async () => {
    const student = await register('leitora');
    const title = `Achados e perdidos ${student.nickname}`;
    const post = await postViaApi(baseUrl, student, title);
    const { page, context } = await newPage(browser(), baseUrl);
    const login = async () => {
      await page.getByLabel('E-mail').fill(student.email);
      await page.getByLabel('Senha', { exact: true }).fill(student.senha);
      await page.getByRole('button', { name: 'Entrar', exact: true }).click();
    };

    await page.goto(`/feed/${String(post.id)}`);
    await visible(page.getByText('Entre para ver este post.'));
    await login();
    await visible(page.getByRole('heading', { name: title, level: 1 }));
    await page.getByRole('link', { name: /^Conta de @/ }).click();
    await page.getByRole('button', { name: 'Sair' }).click();

    // Another site, by any spelling, is no return target: the login goes to the feed.
    for (const foreign of ['//example.com/x', '/\\example.com', 'https://example.com/']) {
      await page.goto(`/entrar?next=${encodeURIComponent(foreign)}`);
      await visible(page.getByRole('heading', { name: 'Entrar', level: 1 }));
      expect(await page.getByText('Entre para').count()).toBe(0);
    }
    await login();
    await page.waitForURL(`${baseUrl}/feed`);
    await context.close();
  });
});
