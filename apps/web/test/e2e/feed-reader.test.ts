import { describe, expect, inject, it } from 'vitest';
import {
  apiCall,
  apiLogin,
  loginViaUi,
  newPage,
  registerViaApi,
  sessionFor,
  uniqueStudent,
  visible,
  onBrowser,
} from './support/browser';

const e2e = inject('e2e');

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

// Written but not yet run in Chromium (the machine was saturated before the deadline): skipped
// until someone runs `npx vitest run --project e2e test/e2e/feed-reader.test.ts` and fixes it.
describe.skip('the feed, seen by its reader', () => {
  const baseUrl = e2e.skip ? '' : e2e.baseUrl;
  const admin = e2e.skip ? { email: '', password: '' } : e2e.admin;
  const browser = onBrowser();

  it('search, like and attend from the cards, upcoming events, edit a comment; an admin hides a reported comment', async () => {
    const author = await registerViaApi(baseUrl, uniqueStudent('autora'));
    const reader = await registerViaApi(baseUrl, uniqueStudent('leitor'));
    const word = `xadrez${author.nickname.replace(/\W/g, '')}`;
    const { accessToken, usuario } = await apiLogin(baseUrl, author);
    const post = (body: Record<string, unknown>) =>
      apiCall(
        baseUrl,
        accessToken,
        'POST',
        '/post',
        { author: usuario.nickname, authorId: usuario.id, ...body },
        201,
      );
    await post({
      title: `Torneio de ${word}`,
      content: 'Inscrições na secretaria',
      type: 'GENERAL',
    });
    const eventTitle = `Simultânea de ${word}`;
    await post({
      title: eventTitle,
      type: 'EVENT',
      eventDate: inDays(3),
      location: 'Ginásio',
    });

    const r = await sessionFor(browser(), baseUrl, reader);
    // Search: both posts, by a word of their titles, accents ignored.
    await r.page.getByLabel('Buscar', { exact: true }).fill(word);
    await r.page.getByRole('button', { name: 'Buscar' }).click();
    await visible(r.page.getByRole('status').filter({ hasText: '2 resultados' }));
    const like = r.page.getByRole('button', { name: `Curtir “Torneio de ${word}”` });
    await like.click();
    const liked = r.page.getByRole('button', { name: `Descurtir “Torneio de ${word}”` });
    await visible(liked);
    expect(await liked.getAttribute('aria-pressed')).toBe('true');

    // Upcoming events: confirm attendance from the card.
    await r.page.getByRole('link', { name: 'Próximos eventos' }).click();
    await visible(r.page.getByRole('link', { name: eventTitle }));
    await r.page.getByRole('button', { name: `Confirmar presença em “${eventTitle}”` }).click();
    await visible(r.page.getByRole('button', { name: `Cancelar presença em “${eventTitle}”` }));

    // Comment, then edit it.
    await r.page.getByRole('link', { name: eventTitle }).click();
    await r.page.getByLabel('Seu comentário').fill('Vou levar meu tabuleiro');
    await r.page.getByRole('button', { name: 'Comentar' }).click();
    await visible(r.page.locator('.comment', { hasText: 'Vou levar meu tabuleiro' }));
    await r.page
      .getByRole('button', { name: `Editar o comentário de @${reader.nickname}` })
      .click();
    await r.page.getByLabel('Editar comentário').fill('Vou levar dois tabuleiros');
    await r.page.getByRole('button', { name: 'Salvar' }).click();
    await visible(r.page.locator('.comment', { hasText: 'Vou levar dois tabuleiros' }));
    await visible(r.page.locator('.comment .meta', { hasText: 'editado' }));

    // The author reports the comment; an admin hides it from the queue.
    const comments = (await apiCall(
      baseUrl,
      accessToken,
      'GET',
      `/post?q=${encodeURIComponent(eventTitle)}`,
      undefined,
      200,
    )) as {
      data: { id: string }[];
    };
    const eventId = comments.data[0]!.id;
    const thread = (await apiCall(
      baseUrl,
      accessToken,
      'GET',
      `/post/${eventId}/comment`,
      undefined,
      200,
    )) as {
      data: { id: string }[];
    };
    await apiCall(
      baseUrl,
      accessToken,
      'POST',
      `/comment/${thread.data[0]!.id}/report`,
      { reason: 'Fora do tema' },
      201,
    );

    const { page } = await newPage(browser(), baseUrl);
    await loginViaUi(page, admin.email, admin.password);
    await page.getByRole('link', { name: 'Denúncias' }).click();
    await visible(page.getByRole('heading', { name: 'Denúncias', level: 1 }));
    const item = page.getByRole('article', { name: `Comentário ${thread.data[0]!.id}` });
    await visible(item.getByText('Fora do tema'));
    await item.getByRole('button', { name: 'Ocultar' }).click();
    await visible(page.getByRole('status').filter({ hasText: 'Comentário ocultado.' }));

    await r.page.reload();
    await visible(r.page.getByRole('heading', { name: 'Comentários (1)' }));
    await visible(r.page.locator('.comment .badge', { hasText: 'Oculto pela moderação' }));
  });
});
