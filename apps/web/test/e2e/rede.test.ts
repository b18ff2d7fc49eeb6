import type { Page, Request } from 'playwright-core';
import { expect, it } from 'vitest';
import { apiCall, apiLogin, screenshot, visible, type Student } from './support/browser';
import { openComposer } from './support/posts';
import { describeE2e } from './support/suite';

const NETWORK_MESSAGE = 'Não foi possível falar com o servidor. Verifique sua conexão.';

/** Opens the feed's composer and fills a post's title and text. */
async function draft(page: Page, title: string) {
  const composer = await openComposer(page);
  await composer.getByLabel('Título').fill(title);
  await composer.getByLabel('Texto').fill('Alguém viu um guarda-chuva azul na biblioteca?');
  return composer;
}

/** How many posts of `student` have `title`, as the API sees them. */
async function postsTitled(baseUrl: string, student: Student, title: string) {
  const { accessToken, usuario } = await apiLogin(baseUrl, student);
  const list = await apiCall(
    baseUrl,
    accessToken,
    'GET',
    `/post?authorId=${usuario.id}&limit=50`,
    undefined,
    200,
  );
  return (list!.data as { title: string }[]).filter((post) => post.title === title).length;
}

describeE2e('rede instável', ({ baseUrl, register, signIn }) => {
  it('offline, an action fails at once with a message, and nothing is sent when the connection returns', async () => {
    const student = await register('semrede');
    const { page, context } = await signIn(student);
    const sent: Request[] = [];
    page.on('requestfinished', (request) => {
      if (request.url().includes('/trpc/feed.create')) sent.push(request);
    });
    const title = `Guarda-chuva ${student.nickname}`;
    const composer = await draft(page, title);

    await context.setOffline(true);
    // Shown above the open sheet (which hides the page behind it from the accessibility tree).
    await visible(page.getByText('Você está sem conexão.'));
    await composer.getByRole('button', { name: 'Publicar' }).click();
    await visible(page.getByRole('alert').filter({ hasText: NETWORK_MESSAGE }));
    expect(await composer.getByRole('button', { name: 'Publicar' }).isEnabled()).toBe(true);
    await screenshot(page, 'sem-conexao');

    await context.setOffline(false);
    await page.getByText('Você está sem conexão.').waitFor({ state: 'hidden' });
    // A short real wait: a paused action would be replayed now that the browser is online.
    await page.waitForTimeout(2_000);
    expect(sent).toHaveLength(0);
    expect(await postsTitled(baseUrl, student, title)).toBe(0);

    // Sent again by hand, it goes.
    await composer.getByRole('button', { name: 'Publicar' }).click();
    await visible(page.getByRole('status').filter({ hasText: `Publicado: “${title}”.` }));
    expect(await postsTitled(baseUrl, student, title)).toBe(1);
    await context.close();
  });

  it('an answer lost on the way back: trying again sends the same Idempotency-Key, and one post is made', async () => {
    const student: Student = await register('semresposta');
    const { page, context } = await signIn(student);
    const keys: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/trpc/feed.create'))
        keys.push(request.headers()['idempotency-key'] ?? '');
    });
    // The first one reaches the server, which creates the post; its answer never arrives.
    await page.route('**/trpc/feed.create**', async (route) => {
      await route.fetch();
      await route.abort('connectionreset');
    });
    const title = `Carona para o jogo ${student.nickname}`;
    const composer = await draft(page, title);
    await composer.getByRole('button', { name: 'Publicar' }).click();
    await visible(page.getByRole('alert').filter({ hasText: NETWORK_MESSAGE }));
    expect(await postsTitled(baseUrl, student, title)).toBe(1);

    await page.unroute('**/trpc/feed.create**');
    await composer.getByRole('button', { name: 'Publicar' }).click();
    await visible(page.getByRole('status').filter({ hasText: `Publicado: “${title}”.` }));
    // (More than two when an expired access token was refreshed in between: the same key again.)
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(keys).size).toBe(1);
    expect(await postsTitled(baseUrl, student, title)).toBe(1);
    await context.close();
  });
});
