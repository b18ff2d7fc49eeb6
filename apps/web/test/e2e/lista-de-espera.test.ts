import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { apiCall, apiLogin, screenshot, visible, type Student } from './support/browser';
import { describeE2e } from './support/suite';

/**
 * The waiting list in the browser (docs/contract/matches.md, Waiting list): a full match offers
 * "Entrar na lista de espera", shows the place in line, and when a player leaves the first in line
 * is in the match (the page updates live); the match is in "Minhas partidas" and can be added to a
 * calendar.
 */
describeE2e('lista de espera', ({ baseUrl, register, signIn }) => {
  it('joins the waiting list of a full match, sees the position, and gets the spot when a player leaves', async () => {
    const [organizer, player, first, second] = (await Promise.all(
      ['organiza', 'jogador', 'espera', 'espera'].map((p) => register(p)),
    )) as [Student, Student, Student, Student];
    // A full match of two (organizer and player), made over the API.
    const org = await apiLogin(baseUrl, organizer);
    const match = (await apiCall(
      baseUrl,
      org.accessToken,
      'POST',
      '/match',
      {
        userId: org.usuario.id,
        title: `Vôlei de areia ${organizer.nickname}`,
        maxPlayers: 2,
        MatchDate: '2031-06-20T18:30:00Z',
        location: 'Praia do campus',
        sport: 'VOLEI_DE_PRAIA',
      },
      201,
    )) as { id: string };
    await apiCall(baseUrl, org.accessToken, 'POST', `/match/${match.id}/subscribe`, undefined, 201);
    const playing = await apiLogin(baseUrl, player);
    await apiCall(
      baseUrl,
      playing.accessToken,
      'POST',
      `/match/${match.id}/subscribe`,
      undefined,
      201,
    );
    const ahead = await apiLogin(baseUrl, first);
    await apiCall(
      baseUrl,
      ahead.accessToken,
      'POST',
      `/match/${match.id}/waitlist`,
      undefined,
      201,
    );

    const { page } = await signIn(second);
    await page.goto(`/partidas/${match.id}`);
    await visible(page.getByText('Vôlei de praia'));
    await page.getByRole('button', { name: 'Entrar na lista de espera' }).click();
    await visible(page.getByRole('status').filter({ hasText: 'lista de espera: posição 2' }));
    await visible(page.locator('#my-waitlist', { hasText: 'posição 2' }));
    const line = page.locator('ol.waitlist li');
    expect(await line.count()).toBe(2);
    expect(await line.nth(1).textContent()).toContain('você');
    await screenshot(page, 'lista-de-espera');

    // "Minhas partidas" lists it, with the place in line.
    await page.goto('/partidas?minhas=1');
    await visible(page.getByText('Lista de espera: 2º'));
    await page.goto(`/partidas/${match.id}`);
    await visible(page.locator('#my-waitlist', { hasText: 'posição 2' }));

    // The player leaves: the first in line plays, and this page moves up to 1 without a reload.
    const again = await apiLogin(baseUrl, player);
    await apiCall(
      baseUrl,
      again.accessToken,
      'DELETE',
      `/match/${match.id}/unsubscribe`,
      undefined,
      200,
    );
    await visible(page.locator('#my-waitlist', { hasText: 'posição 1' }));
    expect(await line.count()).toBe(1);

    // "Adicionar à agenda" goes to the match's calendar file (a phone opens its calendar; this
    // desktop Chromium saves it), which names the teams as people read them.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Adicionar à agenda' }).click(),
    ]);
    const file = readFileSync((await download.path())!, 'utf8');
    expect(file).toContain(`UID:match-${match.id}@`);
    expect(file).not.toContain('TIME_A');

    await page.getByRole('button', { name: 'Sair da lista de espera' }).click();
    await visible(
      page.getByRole('group', { name: 'Sair da lista de espera? Você perde a posição 1.' }),
    );
    await page.getByRole('button', { name: 'Sim, sair' }).click();
    await visible(page.getByRole('status').filter({ hasText: 'Você saiu da lista de espera.' }));
    await visible(page.getByRole('button', { name: 'Entrar na lista de espera' }));
  });
});
