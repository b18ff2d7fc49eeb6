import type { Page } from 'playwright-core';
import { it } from 'vitest';
import {
  apiCall,
  apiLogin,
  loginViaUi,
  newPage,
  screenshot,
  visible,
  type Student,
} from './support/browser';
import { publishViaApi } from './support/posts';
import { describeE2e } from './support/suite';

/**
 * Every page at a phone's size (390×844) and a laptop's (1280×800), with content in it: each one
 * is checked with axe-core and pictured (apps/web/test-results/screenshots/<size>-<page>.png),
 * so a layout that breaks at one size is seen, and an accessibility fault at either fails.
 */
describeE2e('every page at both sizes', ({ baseUrl, admin, browser, register }) => {
  /** Content for the pages to show: a post and an event, a match, a group. */
  async function seed(student: Student) {
    const [post] = await publishViaApi(
      baseUrl,
      student,
      {
        title: 'Mutirão na biblioteca',
        type: 'GENERAL',
        content: 'Sábado às 9h, veja https://campus.example/mutirao',
      },
      {
        title: 'Festa junina do campus',
        type: 'EVENT',
        content: 'Quadrilha, comidas típicas e música ao vivo.',
        eventDate: '2031-06-20T22:00:00Z',
        location: 'Praça central',
      },
    );
    const { accessToken, usuario } = await apiLogin(baseUrl, student);
    const match = (await apiCall(
      baseUrl,
      accessToken,
      'POST',
      '/match',
      {
        userId: usuario.id,
        title: 'Futsal de quinta',
        maxPlayers: 10,
        MatchDate: '2031-06-19T22:30:00Z',
        location: 'Ginásio 2',
        sport: 'FUTSAL',
      },
      201,
    )) as { id: string };
    await apiCall(baseUrl, accessToken, 'POST', `/match/${match.id}/subscribe`, undefined, 201);
    const group = (await apiCall(
      baseUrl,
      accessToken,
      'POST',
      '/group',
      {
        name: `Atlética ${student.nickname}`,
        description: 'Treinos de futsal e vôlei às terças e quintas',
        groupType: 'ATHLETIC',
        sports: ['Futsal', 'Vôlei'],
      },
      201,
    )) as { id: string };
    return { postId: post!.id, matchId: match.id, groupId: group.id };
  }

  /** Opens `path` and waits for its heading and its data before the picture (and the axe check). */
  async function picture(page: Page, path: string, name: string) {
    await page.goto(path);
    await visible(page.getByRole('heading', { level: 1 }));
    await page.waitForFunction(
      () =>
        ![...document.querySelectorAll('[role=status]')].some((status) =>
          status.textContent?.startsWith('Carregando'),
        ),
    );
    await screenshot(page, name);
  }

  it.each([
    ['celular', true],
    ['computador', false],
  ] as const)('at the %s size', async (size, phone) => {
    const student = await register('telas');
    const { postId, matchId, groupId } = await seed(student);
    const viewport = phone ? undefined : { width: 1280, height: 800 };
    const open = async () => {
      const opened = await newPage(browser(), baseUrl, { phone });
      if (viewport) await opened.page.setViewportSize(viewport);
      return opened;
    };

    const visitor = await open();
    for (const [path, name] of [
      ['/entrar', 'entrar'],
      ['/cadastro', 'cadastro'],
      ['/cadastro/professor', 'cadastro-professor'],
      ['/esqueci-senha', 'esqueci-senha'],
    ] as const)
      await picture(visitor.page, path, `${size}-${name}`);
    await visitor.context.close();

    const signedIn = await open();
    await loginViaUi(signedIn.page, student.email, student.senha);
    for (const [path, name] of [
      ['/feed', 'feed'],
      [`/feed/${postId}`, 'post'],
      ['/partidas', 'partidas'],
      [`/partidas/${matchId}`, 'partida'],
      ['/grupos', 'grupos'],
      [`/grupos/${groupId}`, 'grupo'],
      ['/notificacoes', 'notificacoes'],
      ['/minha-conta', 'minha-conta'],
    ] as const)
      await picture(signedIn.page, path, `${size}-${name}`);
    await signedIn.context.close();

    const administrator = await open();
    await loginViaUi(administrator.page, admin.email, admin.password);
    await picture(administrator.page, '/administracao', `${size}-administracao`);
    await picture(administrator.page, '/administracao/denuncias', `${size}-denuncias`);
    await administrator.context.close();
  });
});
