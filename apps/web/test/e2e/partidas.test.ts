import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { screenshot, visible, type Student } from './support/browser';
import { describeE2e } from './support/suite';

/** Creates a match with the form on /partidas and waits for its page. */
async function createMatch(
  page: Page,
  match: { title: string; maxPlayers: number; teamA?: string; teamB?: string },
) {
  await page.getByRole('link', { name: 'Partidas', exact: true }).click();
  await visible(page.getByRole('heading', { name: 'Partidas', level: 1 }));
  const composer = page.locator('details.composer');
  if ((await composer.getAttribute('open')) === null) await composer.locator('summary').click();
  await page.getByLabel('Título').fill(match.title);
  await page.getByLabel('Descrição').fill('Racha semanal, traga água.');
  await page.getByLabel('Número de jogadores').fill(String(match.maxPlayers));
  await page.getByLabel('Data e hora').fill('2031-06-20T18:30');
  await page.getByLabel('Local', { exact: true }).fill('Quadra do ginásio');
  if (match.teamA) await page.getByLabel('Nome do time A').fill(match.teamA);
  if (match.teamB) await page.getByLabel('Nome do time B').fill(match.teamB);
  await page.getByRole('button', { name: 'Criar partida' }).click();
  await visible(page.getByRole('heading', { name: match.title, level: 1 }));
  return page.url();
}

const spots = (page: Page) => page.locator('#spots').textContent();

describeE2e('partidas', ({ register, signIn }) => {
  it('creates a match and fills it with several users until it is full', async () => {
    const [organizer, ...players] = (await Promise.all(
      Array.from({ length: 5 }, (_, i) => register(i === 0 ? 'organiza' : 'jogador')),
    )) as [Student, ...Student[]];
    const org = await signIn(organizer);
    const title = `Futsal de quinta ${organizer.nickname}`;

    // An invalid size: the API's rule, checked before sending, shows beside the field.
    await org.page.getByRole('link', { name: 'Partidas', exact: true }).click();
    await org.page.getByText('Criar uma partida').click();
    await org.page.getByLabel('Título').fill(title);
    await org.page.getByLabel('Número de jogadores').fill('1');
    await org.page.getByLabel('Data e hora').fill('2031-06-20T18:30');
    await org.page.getByLabel('Local', { exact: true }).fill('Quadra do ginásio');
    await org.page.getByRole('button', { name: 'Criar partida' }).click();
    await visible(org.page.locator('.field__error', { hasText: 'deve ser no mínimo 2' }));
    expect(await org.page.getByLabel('Número de jogadores').getAttribute('aria-invalid')).toBe(
      'true',
    );

    const matchUrl = await createMatch(org.page, {
      title,
      maxPlayers: 4,
      teamA: 'Azul',
      teamB: 'Vermelho',
    });
    expect(await spots(org.page)).toContain('0 de 4 vagas preenchidas · 4 vagas livres');
    await org.page.getByRole('button', { name: 'Inscrever-me' }).click();
    await visible(org.page.getByRole('status').filter({ hasText: 'você está no time A: Azul' }));
    await screenshot(org.page, 'partida');

    // Three more people, each in a browser of their own, at the same time.
    const sessions = await Promise.all(players.slice(0, 3).map((p) => signIn(p)));
    await Promise.all(
      sessions.map(async ({ page }) => {
        await page.goto(matchUrl);
        await page.getByRole('button', { name: 'Inscrever-me' }).click();
        await visible(page.getByRole('status').filter({ hasText: 'Inscrição feita' }));
      }),
    );

    // Full: both teams complete, no subscribe button for the fifth person.
    await org.page.reload();
    await visible(org.page.getByText('4 de 4 vagas preenchidas · partida lotada'));
    expect(await org.page.locator('.team').nth(0).textContent()).toContain(
      '2 de 2 jogadores · completo',
    );
    expect(await org.page.locator('.team').nth(1).textContent()).toContain(
      '2 de 2 jogadores · completo',
    );
    expect(await org.page.locator('.free-spot').count()).toBe(0);
    // A full match: nobody can switch teams either.
    expect(await org.page.getByRole('button', { name: 'Trocar para o time B' }).isDisabled()).toBe(
      true,
    );
    await screenshot(org.page, 'partida-lotada');

    const late = await signIn(players[3]!);
    await late.page.goto(matchUrl);
    // Full: no subscribe, the waiting list instead.
    await visible(late.page.getByText('Partida lotada.', { exact: true }));
    await visible(late.page.getByRole('button', { name: 'Entrar na lista de espera' }));
    expect(await late.page.getByRole('button', { name: 'Inscrever-me' }).count()).toBe(0);

    // The list shows it full.
    await org.page.getByRole('link', { name: '← Voltar às partidas' }).click();
    const item = org.page.locator('.match-item', { hasText: title });
    await visible(item);
    expect(await item.textContent()).toContain('4 de 4 vagas preenchidas · lotada');
    await screenshot(org.page, 'partidas');

    for (const session of [org, late, ...sessions]) await session.context.close();
  });

  it('switches team, unsubscribes, and the author edits and moves the status along', async () => {
    const [organizer, player] = await Promise.all([register('capitao'), register('reserva')]);
    const org = await signIn(organizer);
    const title = `Vôlei ${organizer.nickname}`;
    const matchUrl = await createMatch(org.page, { title, maxPlayers: 4 });
    await org.page.getByRole('button', { name: 'Inscrever-me' }).click();
    await visible(org.page.getByText('Você está no time A.'));
    // A team left unnamed is "Time A", never "Time A: TIME_A".
    await visible(org.page.getByRole('heading', { name: 'Time A', exact: true }));
    expect(await org.page.getByText('TIME_A').count()).toBe(0);

    await org.page.getByRole('button', { name: 'Trocar para o time B' }).click();
    await visible(org.page.getByRole('status').filter({ hasText: 'Você agora está no time B.' }));
    await visible(org.page.getByText('Você está no time B.'));
    expect(await org.page.locator('.team').nth(1).textContent()).toContain(organizer.nome);

    // The next subscriber goes to the team with fewer players: A.
    const other = await signIn(player);
    await other.page.goto(matchUrl);
    await other.page.getByRole('button', { name: 'Inscrever-me' }).click();
    await visible(other.page.getByRole('status').filter({ hasText: 'você está no time A.' }));
    await other.page.getByRole('button', { name: 'Trocar para o time B' }).click();
    await visible(other.page.getByRole('status').filter({ hasText: 'Você agora está no time B.' }));
    // Not the author: no organisation panel.
    expect(await other.page.getByRole('heading', { name: 'Organização' }).count()).toBe(0);

    // The author edits: a size below the players already in (two in B) is refused beside the field.
    await org.page.getByRole('button', { name: 'Editar partida' }).click();
    const panel = org.page.locator('section', {
      has: org.page.getByRole('heading', { name: 'Organização' }),
    });
    await panel.getByLabel('Número de jogadores').fill('2');
    await panel.getByRole('button', { name: 'Salvar alterações' }).click();
    await visible(
      panel.locator('.field__error', {
        hasText: 'Já há mais jogadores inscritos do que esse limite.',
      }),
    );
    await panel.getByLabel('Número de jogadores').fill('6');
    await panel.getByLabel('Título').fill(`${title} (mista)`);
    await panel.getByLabel('Nome do time B').fill('Tubarões');
    await panel.getByRole('button', { name: 'Salvar alterações' }).click();
    await visible(org.page.getByRole('heading', { name: `${title} (mista)`, level: 1 }));
    await visible(org.page.getByText('Você está no time B: Tubarões.'));
    await visible(org.page.getByText('2 de 6 vagas preenchidas · 4 vagas livres'));

    // Leaving asks first: the seat goes to someone else.
    await other.page.getByRole('button', { name: 'Sair da partida' }).click();
    await other.page.getByRole('button', { name: 'Sim, sair' }).click();
    await visible(other.page.getByRole('status').filter({ hasText: 'Você saiu da partida.' }));
    await visible(other.page.getByRole('button', { name: 'Inscrever-me' }));

    await org.page.getByRole('button', { name: 'Iniciar partida' }).click();
    await visible(org.page.getByRole('status').filter({ hasText: 'Situação: Em andamento.' }));
    await visible(
      org.page
        .getByText('As inscrições estão encerradas.')
        .or(org.page.locator('.badge', { hasText: 'Em andamento' })),
    );
    await org.page.getByRole('button', { name: 'Finalizar partida' }).click();
    await visible(org.page.getByRole('status').filter({ hasText: 'Situação: Finalizada.' }));
    await visible(org.page.locator('.badge', { hasText: 'Finalizada' }));
    expect(
      await org.page.getByRole('button', { name: /Iniciar|Finalizar|Cancelar partida/ }).count(),
    ).toBe(0);
    await screenshot(org.page, 'partida-finalizada');

    await other.page.reload();
    // A finished match offers nothing to do: no seat to take, no free spot, no calendar.
    await visible(other.page.getByText('Partida encerrada.'));
    expect(await other.page.locator('main .actions button, main .free-spot').count()).toBe(0);
    await org.context.close();
    await other.context.close();
  });
});
