import { expect, it } from 'vitest';
import { apiCall, apiLogin, present, screenshot, visible, type Student } from './support/browser';
import { openComposer } from './support/posts';
import { describeE2e } from './support/suite';

describeE2e('publicar como grupo', ({ baseUrl, register, signIn }) => {
  it("an OWNER posts in the group's name from the form; a MEMBER is not offered the group", async () => {
    const [founder, student] = (await Promise.all([register('dona'), register('socio')])) as [
      Student,
      Student,
    ];
    const name = `Atlética Química ${founder.nickname}`;

    // The owner creates the group in the Grupos page.
    const owner = await signIn(founder);
    await owner.page.getByRole('link', { name: 'Grupos', exact: true }).click();
    await owner.page.getByText('Criar um grupo').click();
    await owner.page.getByLabel('Nome', { exact: true }).fill(name);
    await owner.page.getByRole('button', { name: 'Criar grupo' }).click();
    await visible(owner.page.getByRole('heading', { name, level: 1 }));
    const groupId = new URL(owner.page.url()).pathname.split('/').pop()!;

    // The student becomes a MEMBER of it and the OWNER of a group of their own.
    const studentToken = (await apiLogin(baseUrl, student)).accessToken;
    const request = await apiCall(
      baseUrl,
      studentToken,
      'POST',
      `/group/${groupId}/requests`,
      {},
      201,
    );
    const own = `Time de Xadrez ${student.nickname}`;
    await apiCall(
      baseUrl,
      studentToken,
      'POST',
      '/group',
      { name: own, groupType: 'AMATEUR' },
      201,
    );
    const ownerToken = (await apiLogin(baseUrl, founder)).accessToken;
    await apiCall(
      baseUrl,
      ownerToken,
      'POST',
      `/group/${groupId}/requests/${String(request!.id)}/approve`,
      {},
      200,
    );

    // The owner posts as the group from the feed's composer.
    const title = `Treino aberto ${founder.nickname}`;
    await owner.page.getByRole('link', { name: 'Feed', exact: true }).click();
    const composer = await openComposer(owner.page);
    const postAs = composer.getByLabel('Publicar como');
    await present(postAs.locator('option', { hasText: name }));
    expect(await postAs.inputValue()).toBe('');
    await postAs.selectOption({ label: name });
    await composer.getByLabel('Título').fill(title);
    await composer.getByRole('button', { name: 'Publicar' }).click();
    await visible(owner.page.getByRole('status').filter({ hasText: `Publicado: “${title}”` }));
    const item = owner.page.locator('article.post-item').filter({ hasText: title });
    await visible(item.getByRole('link', { name, exact: true }));
    await visible(item.getByText(`por @${founder.nickname}`));
    await screenshot(owner.page, 'publicar-como-grupo');

    // The post's page shows the group too.
    await item.getByRole('link', { name: title }).click();
    await visible(owner.page.getByRole('heading', { name: title, level: 1 }));
    await visible(owner.page.locator('.meta').getByRole('link', { name, exact: true }));

    // The MEMBER is offered their own group, not the one they are only a member of.
    const member = await signIn(student);
    const memberComposer = await openComposer(member.page);
    const memberPostAs = memberComposer.getByLabel('Publicar como');
    await present(memberPostAs.locator('option', { hasText: own }));
    const options = await memberPostAs.locator('option').allTextContents();
    expect(options).toEqual([`@${student.nickname} (você)`, own]);
  });
});
