import type { Page } from 'playwright-core';
import { apiCall, apiLogin, type Student } from './browser';

/** The fields of a post as `POST /post` takes them (the author's are added). */
export type PostBody = Record<string, unknown> & { title: string; type: 'GENERAL' | 'EVENT' };

/**
 * Publishes posts as `author` straight through the REST API, with a fresh token (they live 5 s
 * in these tests), and answers each created post.
 */
export async function publishViaApi(baseUrl: string, author: Student, ...posts: PostBody[]) {
  const { accessToken, usuario } = await apiLogin(baseUrl, author);
  const created: { id: string; createdAt: string }[] = [];
  for (const body of posts) {
    const post = await apiCall(
      baseUrl,
      accessToken,
      'POST',
      '/post',
      { author: usuario.nickname, authorId: usuario.id, ...body },
      201,
    );
    created.push(post as { id: string; createdAt: string });
  }
  return created;
}

/** Opens the feed's composer: the header's "Publicar", which opens a sheet (a dialog). */
export async function openComposer(page: Page) {
  await page.getByRole('button', { name: 'Publicar', exact: true }).first().click();
  const composer = page.getByRole('dialog', { name: 'Nova publicação' });
  await composer.waitFor({ state: 'visible' });
  return composer;
}
