import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { apiCall, apiLogin, screenshot, visible, type Student } from './support/browser';
import { openComposer } from './support/posts';
import { describeE2e } from './support/suite';

/** Writes a post or an event with the feed's composer. */
async function publish(
  page: Page,
  post: { title: string; content?: string; event?: { start: string; location: string } },
) {
  const composer = await openComposer(page);
  await composer.getByLabel('Título').fill(post.title);
  if (post.content) await composer.getByLabel('Texto').fill(post.content);
  if (post.event) {
    await composer.getByLabel('Tipo').selectOption('EVENT');
    await composer.getByLabel('Início').fill(post.event.start);
    await composer.getByLabel('Local').fill(post.event.location);
  }
  await composer.getByRole('button', { name: 'Publicar' }).click();
}

describeE2e('feed', ({ baseUrl, register, signIn }) => {
  let author: Student;
  let reader: Student;
  beforeAll(async () => {
    author = await register('autora');
    reader = await register('leitor');
  });

  it('posts, likes and comments; another user attends the event, comments and reports; the author edits and deletes', async () => {
    const a = await signIn(author);
    const title = `Mutirão de estudos ${author.nickname}`;

    // An event without its place: the API's rule, checked before sending, shows beside "Local".
    const composer = await openComposer(a.page);
    await composer.getByLabel('Título').fill(title);
    await composer.getByLabel('Tipo').selectOption('EVENT');
    await composer.getByLabel('Início').fill('2031-03-10T14:00');
    await composer.getByRole('button', { name: 'Publicar' }).click();
    await visible(composer.locator('.field__error', { hasText: 'obrigatório para eventos' }));
    expect(await composer.getByLabel('Local').getAttribute('aria-invalid')).toBe('true');

    await composer.getByLabel('Texto').fill('Revisão de cálculo para a prova.\nTragam exercícios!');
    await composer.getByLabel('Local').fill('Biblioteca central, sala 2');
    await composer.getByRole('button', { name: 'Publicar' }).click();
    await visible(a.page.getByRole('status').filter({ hasText: `Publicado: “${title}”.` }));
    await publish(a.page, {
      title: `Recado ${author.nickname}`,
      content: 'A cantina abre às 7h amanhã.',
    });
    await visible(a.page.getByRole('link', { name: `Recado ${author.nickname}` }));
    await screenshot(a.page, 'feed');

    // The post's page: like and comment.
    await a.page.getByRole('link', { name: title }).click();
    await visible(a.page.getByRole('heading', { name: title, level: 1 }));
    await a.page.getByRole('button', { name: /Curtir/ }).click();
    await visible(a.page.getByRole('button', { name: '♥ Curtido (1)' }));
    expect(await a.page.getByRole('button', { name: /Curtido/ }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await a.page.getByLabel('Seu comentário').fill('Levem calculadora.');
    await a.page.getByRole('button', { name: 'Comentar' }).click();
    await visible(a.page.getByRole('heading', { name: 'Comentários (1)' }));
    await visible(a.page.locator('.comment', { hasText: 'Levem calculadora.' }));
    const postUrl = a.page.url();

    // Another student: attend, comment, like, report.
    const b = await signIn(reader);
    await b.page.goto(postUrl);
    await visible(b.page.getByRole('heading', { name: title, level: 1 }));
    await b.page.getByRole('button', { name: 'Vou participar (0)', pressed: false }).click();
    await visible(b.page.getByRole('button', { name: '✓ Vou participar (1)', pressed: true }));
    await b.page.getByRole('button', { name: '♡ Curtir (1)' }).click();
    await visible(b.page.getByRole('button', { name: '♥ Curtido (2)' }));
    await b.page.getByLabel('Seu comentário').fill('Eu vou!');
    await b.page.getByRole('button', { name: 'Comentar' }).click();
    await visible(b.page.getByRole('heading', { name: 'Comentários (2)' }));
    await b.page.locator('summary', { hasText: 'Denunciar' }).click();
    await b.page.getByLabel('Motivo da denúncia').fill('Teste de denúncia');
    await b.page.getByRole('button', { name: 'Enviar denúncia' }).click();
    await visible(b.page.getByRole('status').filter({ hasText: 'Denúncia enviada' }));
    await visible(b.page.getByText('Você denunciou esta publicação.'));
    // One report per user: a second one (after a reload) is refused beside the reason.
    await b.page.reload();
    await b.page.locator('summary', { hasText: 'Denunciar' }).click();
    await b.page.getByLabel('Motivo da denúncia').fill('De novo');
    await b.page.getByRole('button', { name: 'Enviar denúncia' }).click();
    await visible(b.page.locator('.field__error', { hasText: 'Você já denunciou este post.' }));
    // Only the author (or an admin) may edit.
    expect(await b.page.getByRole('button', { name: 'Editar', exact: true }).count()).toBe(0);
    await screenshot(b.page, 'post');

    // The author sees the others' actions, edits the post, deletes a comment, then the post.
    await a.page.reload();
    await visible(a.page.getByRole('button', { name: '♥ Curtido (2)' }));
    await visible(a.page.getByText(`1 presença confirmada: @${reader.nickname}`));
    // Deleting a comment asks first; Cancelar keeps it, "Sim, excluir" deletes it and says so.
    const deleteComment = a.page.getByRole('button', {
      name: `Excluir o comentário de @${reader.nickname}`,
    });
    await deleteComment.click();
    await a.page.getByRole('button', { name: 'Cancelar' }).click();
    await visible(deleteComment);
    expect(await a.page.getByRole('heading', { name: 'Comentários (2)' }).count()).toBe(1);
    await deleteComment.click();
    await visible(a.page.getByRole('group', { name: 'Excluir este comentário?' }));
    await a.page.getByRole('button', { name: 'Sim, excluir' }).click();
    await visible(a.page.getByRole('heading', { name: 'Comentários (1)' }));
    await visible(a.page.getByRole('status').filter({ hasText: 'Comentário excluído.' }));
    await a.page.getByRole('button', { name: 'Editar', exact: true }).click();
    const editor = a.page.locator('section', {
      has: a.page.getByRole('heading', { name: 'Editar publicação' }),
    });
    await editor.getByLabel('Título').fill(`${title} (adiado)`);
    await editor.getByLabel('Início').fill('2031-03-17T14:00');
    await editor.getByRole('button', { name: 'Salvar alterações' }).click();
    await visible(a.page.getByRole('heading', { name: `${title} (adiado)`, level: 1 }));
    await visible(a.page.getByRole('status').filter({ hasText: 'Publicação atualizada.' }));
    await a.page.getByRole('button', { name: 'Excluir', exact: true }).click();
    await a.page.getByRole('button', { name: 'Sim, excluir' }).click();
    await a.page.waitForURL('**/feed');
    await visible(a.page.getByRole('status').filter({ hasText: 'Publicação excluída.' }));
    await visible(a.page.getByRole('link', { name: `Recado ${author.nickname}` }));
    expect(await a.page.getByRole('link', { name: `${title} (adiado)` }).count()).toBe(0);
    await a.context.close();
    await b.context.close();
  });

  it('scrolls through the feed endlessly, newest first', async () => {
    const writer = await register('paginas');
    const { accessToken, usuario } = await apiLogin(baseUrl, writer);
    for (let i = 1; i <= 12; i++) {
      await apiCall(
        baseUrl,
        accessToken,
        'POST',
        '/post',
        {
          title: `Post ${i} de ${writer.nickname}`,
          type: 'GENERAL',
          author: usuario.nickname,
          authorId: usuario.id,
        },
        201,
      );
    }
    const { page, context } = await signIn(writer);
    await visible(page.getByRole('link', { name: `Post 12 de ${writer.nickname}` }));
    // The next page comes as the end of the list nears the screen (its cursor, meta.nextCursor).
    await page.getByRole('button', { name: 'Carregar mais' }).scrollIntoViewIfNeeded();
    await visible(page.getByRole('link', { name: `Post 1 de ${writer.nickname}` }));
    expect(page.url()).toMatch(/\/feed$/);
    await context.close();
  });
});
