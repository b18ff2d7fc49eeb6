import { expect, it } from 'vitest';
import { screenshot, visible, type Student } from './support/browser';
import { describeE2e } from './support/suite';

describeE2e('grupos', ({ register, signIn }) => {
  it('creates a group, finds it ignoring accents, asks to join, follows; the owner approves', async () => {
    const [founder, student] = (await Promise.all([register('fundador'), register('calouro')])) as [
      Student,
      Student,
    ];
    const name = `Atlética Física ${founder.nickname}`;

    const owner = await signIn(founder);
    await owner.page.getByRole('link', { name: 'Grupos', exact: true }).click();
    await visible(owner.page.getByRole('heading', { name: 'Grupos', level: 1 }));
    await owner.page.getByText('Criar um grupo').click();
    await owner.page.getByLabel('Nome', { exact: true }).fill(name);
    await owner.page.getByLabel('Esportes (separados por vírgula)').fill('Futsal, Vôlei');
    await owner.page.getByRole('button', { name: 'Criar grupo' }).click();
    await visible(owner.page.getByRole('heading', { name, level: 1 }));
    await visible(owner.page.getByText('Você é dono'));
    const groupUrl = owner.page.url();

    const member = await signIn(student);
    await member.page.getByRole('link', { name: 'Grupos', exact: true }).click();
    await member.page
      .getByLabel('Buscar por nome')
      .fill(`atletica fisica ${founder.nickname}`.toUpperCase());
    await member.page.getByRole('button', { name: 'Buscar' }).click();
    await member.page.getByRole('link', { name }).click();
    await visible(member.page.getByRole('heading', { name, level: 1 }));
    await member.page.getByRole('button', { name: 'Pedir para entrar' }).click();
    await visible(member.page.getByRole('status').filter({ hasText: 'Pedido enviado' }));
    await member.page.getByRole('button', { name: 'Seguir', exact: true }).click();
    await visible(member.page.getByRole('status').filter({ hasText: 'Agora você segue' }));
    await visible(member.page.getByRole('button', { name: 'Retirar pedido' }));

    await owner.page.goto(groupUrl);
    await visible(owner.page.getByRole('heading', { name: 'Pedidos para entrar' }));
    await owner.page.getByRole('button', { name: 'Aprovar' }).click();
    await visible(owner.page.getByRole('status').filter({ hasText: 'agora é membro' }));
    await owner.page.getByRole('tab', { name: 'Membros' }).click();
    const members = owner.page.getByRole('region', { name: 'Membros' });
    await visible(members.getByText(`@${student.nickname}`));
    expect(await owner.page.getByText('2 membros · 1 seguidor').count()).toBe(1);
    await screenshot(owner.page, 'grupo');

    await member.page.reload();
    await visible(member.page.getByRole('button', { name: 'Sair do grupo' }));
    await visible(member.page.getByText('Você é membro'));

    // The owner removes the member: asked first, announced after.
    await owner.page.getByRole('button', { name: `Remover @${student.nickname} do grupo` }).click();
    await owner.page.getByRole('button', { name: 'Sim, remover' }).click();
    await visible(
      owner.page
        .getByRole('status')
        .filter({ hasText: `${student.nome} foi removido(a) do grupo.` }),
    );
    expect(await members.getByText(`@${student.nickname}`).count()).toBe(0);
  });
});
