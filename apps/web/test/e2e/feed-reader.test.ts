import { expect, it } from 'vitest';
import { apiCall, apiLogin, loginViaUi, newPage, visible } from './support/browser';
import { publishViaApi } from './support/posts';
import { describeE2e } from './support/suite';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describeE2e('the feed, seen by its reader', ({ baseUrl, admin, browser, register, signIn }) => {
  it('search, like and attend from the cards, upcoming events, edit a comment; an admin hides a reported comment', async () => {
    const author = await register('autora');
    const reader = await register('leitor');
    const word = `xadrez${author.nickname.replace(/\W/g, '')}`;
    const eventTitle = `Simultânea de ${word}`;
    await publishViaApi(
      baseUrl,
      author,
      { title: `Torneio de ${word}`, content: 'Inscrições na secretaria', type: 'GENERAL' },
      { title: eventTitle, type: 'EVENT', eventDate: inDays(3), location: 'Ginásio' },
    );

    const r = await signIn(reader);
    // Search: both posts, by a word of their titles, accents ignored.
    await r.page.getByRole('button', { name: 'Filtros' }).click();
    await r.page.getByLabel('Buscar', { exact: true }).fill(word);
    await r.page.getByRole('button', { name: 'Buscar' }).click();
    await visible(r.page.getByText(`Filtrando por “${word}”`));
    await visible(r.page.getByRole('link', { name: eventTitle }));
    expect(await r.page.locator('.post-item').count()).toBe(2);
    const like = r.page.getByRole('button', { name: `Curtir “Torneio de ${word}”` });
    await like.click();
    const liked = r.page.getByRole('button', { name: `Curtido “Torneio de ${word}”` });
    await visible(liked);
    expect(await liked.getAttribute('aria-pressed')).toBe('true');

    // Upcoming events: confirm attendance from the card.
    await r.page.getByRole('link', { name: 'Próximos eventos' }).click();
    await visible(r.page.getByRole('link', { name: eventTitle }));
    await r.page.getByRole('button', { name: `Vou participar “${eventTitle}”` }).click();
    await visible(
      r.page.getByRole('button', { name: `Vou participar “${eventTitle}”`, pressed: true }),
    );

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

    // The author reports the comment (a fresh token: they live 5 s); an admin hides it.
    const { accessToken: token } = await apiLogin(baseUrl, author);
    const comments = (await apiCall(
      baseUrl,
      token,
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
      token,
      'GET',
      `/post/${eventId}/comment`,
      undefined,
      200,
    )) as {
      data: { id: string }[];
    };
    await apiCall(
      baseUrl,
      token,
      'POST',
      `/comment/${thread.data[0]!.id}/report`,
      { reason: 'Fora do tema' },
      201,
    );

    const { page } = await newPage(browser(), baseUrl);
    await loginViaUi(page, admin.email, admin.password);
    await page.getByRole('link', { name: /^Conta de @/ }).click();
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
