import { expect, it } from 'vitest';
import { apiCall, apiLogin, screenshot, visible } from './support/browser';
import { describeE2e } from './support/suite';

/**
 * Live updates in the browser: nobody reloads. Access tokens live 5 s here, so the streams are
 * also ended by the server and reopened with a refreshed token along the way.
 */
describeE2e('live updates', ({ baseUrl, register, signIn }) => {
  it("another user's subscription updates the match page's spots without a reload", async () => {
    const organiser = await register('organiza');
    const player = await register('jogador');
    const org = await apiLogin(baseUrl, organiser);
    const match = await apiCall(
      baseUrl,
      org.accessToken,
      'POST',
      '/match',
      {
        userId: org.usuario.id,
        title: `Vôlei ao vivo ${organiser.nickname}`,
        maxPlayers: 4,
        MatchDate: '2031-06-20T21:30:00.000Z',
        location: 'Quadra de areia',
      },
      201,
    );
    const viewer = await signIn(organiser);
    await viewer.page.goto(`/partidas/${match!.id as string}`);
    const spots = viewer.page.locator('#spots');
    await visible(spots.filter({ hasText: '0 de 4 vagas preenchidas' }));

    const joined = await apiLogin(baseUrl, player);
    await apiCall(
      baseUrl,
      joined.accessToken,
      'POST',
      `/match/${match!.id as string}/subscribe`,
      undefined,
      201,
    );
    await visible(spots.filter({ hasText: '1 de 4 vagas preenchidas' }));
    await visible(viewer.page.getByText(`@${player.nickname}`));

    // Past the 5 s token lifetime the stream was reopened: a later change still arrives.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const again = await apiLogin(baseUrl, player);
    await apiCall(
      baseUrl,
      again.accessToken,
      'DELETE',
      `/match/${match!.id as string}/unsubscribe`,
      undefined,
      200,
    );
    await visible(spots.filter({ hasText: '0 de 4 vagas preenchidas' }));
    await viewer.context.close();
  });

  it('the unread badge counts up as comments arrive, and the inbox marks them read', async () => {
    const author = await register('autora');
    const commenter = await register('comenta');
    const me = await apiLogin(baseUrl, author);
    const post = await apiCall(
      baseUrl,
      me.accessToken,
      'POST',
      '/post',
      {
        title: 'Alguém para estudar cálculo?',
        type: 'GENERAL',
        author: author.nickname,
        authorId: me.usuario.id,
      },
      201,
    );
    const session = await signIn(author);
    const bell = session.page.getByRole('link', { name: /^Notificações/ });
    await visible(bell);
    expect(await bell.getAttribute('aria-label')).toBe('Notificações');

    for (const [i, text] of ['Eu!', 'Eu também'].entries()) {
      const other = await apiLogin(baseUrl, commenter);
      await apiCall(
        baseUrl,
        other.accessToken,
        'POST',
        `/post/${post!.id as string}/comment`,
        { content: text },
        201,
      );
      await visible(session.page.getByRole('link', { name: `Notificações, ${i + 1} não lidas` }));
    }
    await screenshot(session.page, 'notificacoes-badge');

    await bell.click();
    await visible(session.page.getByRole('heading', { name: 'Notificações', level: 1 }));
    await visible(session.page.getByText(`${commenter.nickname} comentou na sua publicação`));
    await session.page.getByRole('button', { name: 'Marcar todas como lidas' }).click();
    await visible(session.page.getByRole('link', { name: 'Notificações', exact: true }));
    await screenshot(session.page, 'notificacoes');

    // The notification leads to the post, whose comments follow live too.
    await session.page
      .getByText(`${commenter.nickname} comentou na sua publicação`)
      .first()
      .click();
    await visible(
      session.page.getByRole('heading', { name: 'Alguém para estudar cálculo?', level: 1 }),
    );
    const later = await apiLogin(baseUrl, commenter);
    await apiCall(
      baseUrl,
      later.accessToken,
      'POST',
      `/post/${post!.id as string}/comment`,
      { content: 'Chego às 19h' },
      201,
    );
    await visible(session.page.getByText('Chego às 19h'));
    await session.context.close();
  });
});
