import { expect, it } from 'vitest';
import { loginViaUi, newPage, screenshot, visible } from './support/browser';
import { describeE2e } from './support/suite';

describeE2e('administração', ({ baseUrl, admin, browser, register, signIn }) => {
  it('an admin blocks a user, whose session ends at their next action; reactivated, they log in again', async () => {
    const student = await register('bloqueado');
    const victim = await signIn(student);
    // The student has no administration.
    expect(await victim.page.getByRole('link', { name: 'Administração' }).count()).toBe(0);
    await victim.page.goto('/administracao');
    await visible(victim.page.getByRole('heading', { name: 'Acesso restrito' }));
    await victim.page.getByRole('link', { name: 'Feed', exact: true }).click();
    await visible(victim.page.getByRole('heading', { name: 'Feed', level: 1 }));

    const { page, context } = await newPage(browser(), baseUrl);
    await loginViaUi(page, admin.email, admin.password);
    await page.getByRole('link', { name: /^Conta de @/ }).click();
    await page.getByRole('link', { name: 'Administração' }).click();
    await visible(page.getByRole('heading', { name: 'Administração de usuários' }));
    await page.getByLabel('Buscar').fill(student.nickname);
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(`**/administracao?busca=${student.nickname}`);
    const row = page.getByRole('row', { name: new RegExp(student.nome) });
    await visible(row);
    await expect.poll(() => page.getByRole('row').count()).toBe(2); // header + the one match
    await row.getByRole('button', { name: `Bloquear ${student.nome}` }).click();
    await visible(
      page
        .getByRole('status')
        .filter({ hasText: `${student.nome}: situação alterada para “Bloqueado”.` }),
    );
    await visible(row.getByText('Bloqueado'));
    await screenshot(page, 'administracao');

    // The blocked student's next action, or their live streams (which the block ends), lead
    // back to the login page, with the reason.
    const next = victim.page.getByRole('link', { name: 'Partidas', exact: true });
    if (await next.isVisible()) await next.click({ timeout: 2_000 }).catch(() => {});
    await victim.page.waitForURL('**/entrar**');
    // Where they were, to go back to after logging in again.
    const back = new URL(victim.page.url()).searchParams.get('next') ?? '/feed';
    await visible(
      victim.page
        .getByRole('alert')
        .filter({ hasText: 'sua conta foi desativada por um administrador' }),
    );
    expect(
      await victim.page.evaluate(() => localStorage.getItem('campus.refreshToken')),
    ).toBeNull();
    await screenshot(victim.page, 'sessao-encerrada');
    await victim.page.getByLabel('E-mail').fill(student.email);
    await victim.page.getByLabel('Senha', { exact: true }).fill(student.senha);
    await victim.page.getByRole('button', { name: 'Entrar', exact: true }).click();
    await visible(victim.page.getByRole('alert').filter({ hasText: 'Esta conta não está ativa.' }));

    // Reactivated: the student logs in again.
    await row.getByRole('button', { name: `Reativar ${student.nome}` }).click();
    await visible(row.getByText('Ativo', { exact: true }));
    await victim.page.getByRole('button', { name: 'Entrar', exact: true }).click();
    await victim.page.waitForURL(`**${back}`);
    await visible(victim.page.locator('main h1'));
    await victim.context.close();
    await context.close();
  });

  it('filters by status and profile and pages through the users', async () => {
    const prefix = `lote${Date.now().toString(36)}`;
    // A few at a time: password hashing is bounded per process (503 SERVER_BUSY past its queue).
    for (let done = 0; done < 22; done += 2)
      await Promise.all([register(prefix), register(prefix)]);

    const { page, context } = await newPage(browser(), baseUrl, { phone: true });
    await loginViaUi(page, admin.email, admin.password);
    await page.goto(`/administracao?busca=${prefix}`);
    await visible(page.getByText('22 usuários encontrados.'));
    await expect.poll(() => page.locator('tbody tr').count()).toBe(20);
    const nav = page.getByRole('navigation', { name: 'Páginas de usuários' });
    await nav.getByRole('button', { name: 'Próxima →' }).click();
    await visible(nav.getByText('Página 2 de 2'));
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    // Block one of them (from a phone-sized screen).
    const blocked = page.locator('tbody tr').first();
    const name = (await blocked.locator('th').textContent())!;
    await blocked.getByRole('button', { name: `Bloquear ${name}` }).click();
    await visible(blocked.getByText('Bloqueado'));
    await screenshot(page, 'administracao-celular');

    await page.getByLabel('Perfil').selectOption('ADMIN');
    await page.getByLabel('Buscar').fill('');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await visible(page.getByRole('row', { name: new RegExp(admin.email) }));
    // An admin cannot be blocked from here.
    expect(await page.getByRole('button', { name: /^Bloquear/ }).count()).toBe(0);

    await page.getByLabel('Perfil').selectOption('');
    await page.getByLabel('Situação').selectOption('INATIVO');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL('**/administracao?status=INATIVO');
    await visible(page.getByRole('row', { name: new RegExp(name) }));
    await expect
      .poll(async () => new Set(await page.locator('tbody .badge').allTextContents()))
      .toEqual(new Set(['Bloqueado']));
    await context.close();
  });
});
