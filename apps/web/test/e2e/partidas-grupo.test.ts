import { expect, it } from 'vitest';
import { apiCall, apiLogin, screenshot, visible, type Student } from './support/browser';
import { describeE2e } from './support/suite';

describeE2e('partidas de um grupo', ({ baseUrl, register, signIn }) => {
  it('the organiser picks sport and group; an ADMIN of that group manages it and records the score', async () => {
    const [founder, helper] = (await Promise.all([register('dona'), register('ajudante')])) as [
      Student,
      Student,
    ];
    const groupName = `Atlética Futsal ${founder.nickname}`;

    // The founder's group; the helper joins and is made one of its ADMINs.
    let ownerToken = (await apiLogin(baseUrl, founder)).accessToken;
    const group = (await apiCall(
      baseUrl,
      ownerToken,
      'POST',
      '/group',
      { name: groupName, groupType: 'ATHLETIC' },
      201,
    )) as { id: string };
    const { accessToken: helperToken, usuario } = await apiLogin(baseUrl, helper);
    const request = (await apiCall(
      baseUrl,
      helperToken,
      'POST',
      `/group/${group.id}/requests`,
      {},
      201,
    )) as { id: string };
    ownerToken = (await apiLogin(baseUrl, founder)).accessToken;
    await apiCall(
      baseUrl,
      ownerToken,
      'POST',
      `/group/${group.id}/requests/${request.id}/approve`,
      {},
      200,
    );
    await apiCall(
      baseUrl,
      ownerToken,
      'PATCH',
      `/group/${group.id}/members/${usuario.id}`,
      { role: 'ADMIN' },
      200,
    );

    // The founder creates the match in the group's name, with its sport.
    const owner = await signIn(founder);
    await owner.page.getByRole('link', { name: 'Partidas', exact: true }).click();
    await owner.page.getByText('Criar uma partida').click();
    const form = owner.page.locator('details.composer');
    const title = `Futsal da atlética ${founder.nickname}`;
    await form.getByLabel('Título').fill(title);
    await form.getByLabel('Número de jogadores').fill('6');
    await form.getByLabel('Data e hora').fill('2031-06-20T18:30');
    await form.getByLabel('Local', { exact: true }).fill('Ginásio');
    await form.getByLabel('Esporte').selectOption({ label: 'Futsal' });
    const organiser = form.getByLabel('Organizada por');
    await organiser.locator('option', { hasText: groupName }).waitFor({ state: 'attached' });
    await organiser.selectOption({ label: groupName });
    await owner.page.getByRole('button', { name: 'Criar partida' }).click();
    await visible(owner.page.getByRole('heading', { name: title, level: 1 }));
    const meta = owner.page.locator('.card .meta').first();
    await visible(meta.getByText(`Futsal · organizada por ${groupName}`, { exact: false }));
    const matchUrl = owner.page.url();

    // The group's ADMIN, who did not create it, has the organisation panel.
    const admin = await signIn(helper);
    await admin.page.goto(matchUrl);
    await visible(admin.page.getByRole('heading', { name: 'Organização' }));
    await admin.page.getByRole('button', { name: 'Iniciar partida' }).click();
    await visible(admin.page.getByRole('status').filter({ hasText: 'Situação: Em andamento.' }));
    await admin.page.getByRole('button', { name: 'Finalizar partida' }).click();
    await visible(admin.page.getByRole('status').filter({ hasText: 'Situação: Finalizada.' }));

    // Finished: the score can be recorded, beside each team's name.
    await admin.page.getByRole('button', { name: 'Editar partida e placar' }).click();
    await admin.page.getByLabel('Placar: Time A').fill('3');
    await admin.page.getByLabel('Placar: Time B').fill('2');
    await admin.page.getByRole('button', { name: 'Salvar alterações' }).click();
    await visible(admin.page.getByRole('status').filter({ hasText: 'Partida atualizada.' }));
    await visible(admin.page.locator('.score', { hasText: 'Placar: Time A 3 × 2 Time B' }));
    await screenshot(admin.page, 'partida-placar');

    await owner.page.reload();
    expect(await owner.page.locator('.score').textContent()).toBe('Placar: Time A 3 × 2 Time B');
  });
});
