import { LIMITS } from '@campus/core/schemas';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  apiCall,
  apiLogin,
  loginViaUi,
  newPage,
  postViaApi,
  screenshot,
  visible,
  type Student,
} from './support/browser';
import { openComposer } from './support/posts';
import { describeE2e } from './support/suite';
import { smallTouchTargets } from './support/touch';

const PHONE_HEIGHT = 844;

describeE2e('no telefone (390×844, toque)', ({ baseUrl, browser, register }) => {
  async function phoneSession(student: Student) {
    const session = await newPage(browser(), baseUrl, { phone: true });
    await loginViaUi(session.page, student.email, student.senha);
    return session;
  }
  const navOf = (page: Page) => page.getByRole('navigation', { name: 'Principal' });

  it('the navigation is one row fixed at the bottom, the bell counts live; the header is the title and its action', async () => {
    const student = await register('polegar');
    const other = await register('vizinho');
    const post = await postViaApi(baseUrl, student, `Carona para o campus ${student.nickname}`);
    const { page, context } = await phoneSession(student);
    const nav = navOf(page);
    const items = nav.getByRole('link');
    expect(await items.allInnerTexts()).toEqual([
      'Feed',
      'Partidas',
      'Grupos',
      'Notificações',
      'Conta',
    ]);
    await visible(page.locator('article.post-item'));
    // Read at once (the bell's item is replaced when its live count arrives).
    const { boxes, bar, current } = await page.evaluate(() => {
      const nav = document.querySelector('nav[aria-label="Principal"]')!;
      const links = [...nav.querySelectorAll('a')];
      return {
        boxes: links.map((a) => a.getBoundingClientRect().toJSON() as DOMRect),
        bar: nav.getBoundingClientRect().toJSON() as DOMRect,
        current: links.map((a) => a.getAttribute('aria-current')),
      };
    });
    // One row, each item a full touch target, the bar's bottom at the screen's.
    expect(new Set(boxes.map((b) => Math.round(b.y))).size).toBe(1);
    for (const box of boxes) expect(box.height).toBeGreaterThanOrEqual(44);
    expect(Math.round(bar.y + bar.height)).toBe(PHONE_HEIGHT);
    expect(current).toEqual(['page', null, null, null, null]);
    // The header: the page's title and its main action, in one row.
    const title = (await page.getByRole('heading', { name: 'Feed', level: 1 }).boundingBox())!;
    const action = (await page.getByRole('button', { name: 'Publicar' }).boundingBox())!;
    expect(Math.abs(title.y + title.height / 2 - (action.y + action.height / 2))).toBeLessThan(8);

    // Someone comments: the bell's badge says so, live.
    const { accessToken } = await apiLogin(baseUrl, other);
    await apiCall(
      baseUrl,
      accessToken,
      'POST',
      `/post/${String(post.id)}/comment`,
      { content: 'Eu vou!' },
      201,
    );
    await visible(nav.getByRole('link', { name: 'Notificações, 1 não lidas' }));
    expect(await nav.getByTestId('unread-count').innerText()).toBe('1');
    await screenshot(page, 'telefone-feed', { screen: true });

    // Scrolled down, the bar is where it was.
    await page.mouse.wheel(0, 2000);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const after = (await nav.boundingBox())!;
    expect(Math.round(after.y + after.height)).toBe(PHONE_HEIGHT);

    await nav.getByRole('link', { name: /^Notificações/ }).tap();
    await visible(page.getByRole('heading', { name: 'Notificações', level: 1 }));
    await nav.getByRole('link', { name: /^Conta de @/ }).tap();
    await visible(page.getByRole('heading', { name: 'Minha conta', level: 1 }));
    await screenshot(page, 'telefone-conta', { screen: true });
    await context.close();
  });

  it('the feed comes first: the first post in the first screen, writing and filtering in sheets', async () => {
    const student = await register('primeira');
    await postViaApi(baseUrl, student, `Achados e perdidos ${student.nickname}`);
    const { page, context } = await phoneSession(student);
    const first = page.locator('article.post-item').first();
    await visible(first);
    expect((await first.boundingBox())!.y).toBeLessThan(PHONE_HEIGHT / 3);

    const composer = await openComposer(page);
    await screenshot(page, 'telefone-escrever', { screen: true });
    const title = `Grupo de estudo ${student.nickname}`;
    await composer.getByLabel('Título').fill(title);
    await composer.getByRole('button', { name: 'Publicar' }).tap();
    await visible(page.getByRole('status').filter({ hasText: `Publicado: “${title}”.` }));
    expect(await page.getByRole('dialog').count()).toBe(0);
    await visible(page.locator('article.post-item').first().getByRole('link', { name: title }));

    await page.getByRole('button', { name: 'Filtros' }).tap();
    const sheet = page.getByRole('dialog', { name: 'Buscar no feed' });
    const search = sheet.getByLabel('Buscar', { exact: true });
    // The field's limit is the API's (written in the feed's code to keep core's schemas out of it).
    expect(await search.evaluate((el) => (el as HTMLInputElement).maxLength)).toBe(
      LIMITS.post.search.max,
    );
    await search.fill(`perdidos ${student.nickname}`);
    await sheet.getByRole('button', { name: 'Buscar' }).tap();
    await visible(page.getByText(`Filtrando por “perdidos ${student.nickname}”`));
    await visible(page.getByRole('link', { name: `Achados e perdidos ${student.nickname}` }));
    expect(await page.locator('article.post-item').count()).toBe(1);
    await context.close();
  });

  it('the feed is endless on the cursors: no post twice while others post, and a "novos posts" pill', async () => {
    const writer = await register('maratona');
    const reader = await register('rolagem');
    const { accessToken, usuario } = await apiLogin(baseUrl, writer);
    const publish = (title: string) =>
      apiCall(
        baseUrl,
        accessToken,
        'POST',
        '/post',
        { title, type: 'GENERAL', author: usuario.nickname, authorId: usuario.id },
        201,
      );
    for (let i = 1; i <= 25; i++) await publish(`Post ${i} de ${writer.nickname}`);
    const { page, context } = await phoneSession(reader);
    await visible(page.getByRole('link', { name: `Post 25 de ${writer.nickname}` }));

    // Scroll towards the end while others keep posting, until the oldest of the 25 is there.
    const oldest = page.getByRole('link', { name: `Post 1 de ${writer.nickname}`, exact: true });
    for (let round = 1; (await oldest.count()) === 0; round++) {
      expect(round).toBeLessThan(10);
      await postViaApi(baseUrl, writer, `Enquanto rola ${round} ${writer.nickname}`);
      await page.locator('.endless__end').scrollIntoViewIfNeeded();
      await page.waitForFunction(
        (n) => document.querySelectorAll('article.post-item').length > n,
        await page.locator('article.post-item').count(),
      );
    }
    const hrefs = await page
      .locator('article.post-item h3 a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(new Set(hrefs).size).toBe(hrefs.length);
    const titles = await page.locator('article.post-item h3 a').allInnerTexts();
    for (let i = 1; i <= 25; i++) expect(titles).toContain(`Post ${i} de ${writer.nickname}`);
    expect(titles.some((t) => t.startsWith('Enquanto rola'))).toBe(false);

    // The posts written meanwhile: a pill, which brings them to the top.
    const pill = page.getByRole('button', { name: /novos? posts?/ });
    await visible(pill);
    await screenshot(page, 'telefone-novos-posts', { screen: true });
    await pill.tap();
    await visible(
      page
        .locator('article.post-item')
        .first()
        .getByText(/^Enquanto rola/),
    );
    expect(await pill.count()).toBe(0);
    await context.close();
  });

  it('switches are drawn at their size beside their labels; every control of the main pages is a finger wide', async () => {
    const student = await register('dedo');
    await postViaApi(baseUrl, student, `Mural ${student.nickname}`);
    const { page, context } = await phoneSession(student);
    const nav = navOf(page);
    for (const [item, heading, label] of [
      ['Grupos', 'Grupos', 'Só os meus grupos'],
      ['Partidas', 'Partidas', 'Minhas partidas'],
      [/^Notificações/, 'Notificações', 'Só as não lidas'],
    ] as const) {
      await nav.getByRole('link', { name: item }).tap();
      await visible(page.getByRole('heading', { name: heading, level: 1 }));
      const control = page.getByRole('switch', { name: label });
      await visible(control);
      const box = (await control.boundingBox())!;
      expect(box.width).toBeLessThanOrEqual(48);
      expect(box.height).toBeLessThanOrEqual(28);
      const text = (await page.getByText(label, { exact: true }).boundingBox())!;
      // Beside it: on the same line, just after it.
      expect(Math.abs(text.y + text.height / 2 - (box.y + box.height / 2))).toBeLessThan(6);
      expect(text.x - (box.x + box.width)).toBeLessThan(16);
      await control.tap();
      // Checked once the page has followed the address it changed (a re-render away).
      await expect.poll(() => control.isChecked()).toBe(true);
    }
    // Each page with what it shows last (its data, a section loaded apart), so the check sees it.
    for (const [item, heading, last] of [
      ['Feed', 'Feed', page.locator('article.post-item').first()],
      ['Partidas', 'Partidas', page.getByRole('switch', { name: 'Minhas partidas' })],
      ['Grupos', 'Grupos', page.getByRole('switch', { name: 'Só os meus grupos' })],
      [/^Notificações/, 'Notificações', page.getByRole('switch', { name: 'Só as não lidas' })],
      [/^Conta de @/, 'Minha conta', page.getByRole('switch', { name: 'Conteúdo meu ocultado' })],
    ] as const) {
      await nav.getByRole('link', { name: item }).tap();
      await visible(page.getByRole('heading', { name: heading, level: 1 }));
      await visible(last);
      await page.waitForFunction(
        () => !document.querySelector('main')!.innerText.includes('Carregando'),
      );
      // Polled: a page may pass through a state of its own while it settles (none may stay).
      // Offenders are named by their labels.
      await expect
        .poll(async () => [heading, await smallTouchTargets(page)], { timeout: 30_000 })
        .toEqual([heading, []]);
    }
    await screenshot(page, 'telefone-conta-alvos', { screen: true });
    await context.close();
  });
});
