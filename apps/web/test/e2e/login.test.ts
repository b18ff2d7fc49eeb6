import { expect, it } from 'vitest';
import { newPage, screenshot, visible, accountLink } from './support/browser';
import { describeE2e } from './support/suite';

const REFRESH_TOKEN_KEY = 'campus.refreshToken';

describeE2e('login e logout', ({ baseUrl, browser, register, signIn }) => {
  it('logs in (after a refused attempt), keeps the session across token expiry and reloads, and logs out', async () => {
    const student = await register('login');
    const { page, context } = await newPage(browser(), baseUrl);
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });

    // A protected address sends a visitor to the login, and back there afterwards.
    await page.goto('/partidas');
    await page.waitForURL('**/entrar?next=%2Fpartidas');

    await page.getByLabel('E-mail').fill(student.email);
    await page.getByLabel('Senha', { exact: true }).fill('senha-errada-123');
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();
    await visible(page.getByRole('alert').filter({ hasText: 'E-mail ou senha inválidos.' }));
    await screenshot(page, 'entrar-erro');

    await page.getByLabel('Senha', { exact: true }).fill(student.senha);
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();
    await page.waitForURL('**/partidas');
    await visible(page.getByRole('heading', { name: 'Partidas', level: 1 }));
    await visible(accountLink(page, student.nickname));
    const firstRefreshToken = await page.evaluate(
      (key) => localStorage.getItem(key),
      REFRESH_TOKEN_KEY,
    );
    expect(firstRefreshToken).toBeTruthy();

    // Access tokens live 5 s here: after that the next call refreshes transparently.
    await page.waitForTimeout(6_000);
    await page.getByRole('link', { name: 'Feed', exact: true }).click();
    await visible(page.getByRole('heading', { name: 'Feed', level: 1 }));
    await visible(page.getByText('Nenhuma publicação ainda').or(page.locator('.post-item')));
    expect(page.url()).toContain('/feed');
    const rotated = await page.evaluate((key) => localStorage.getItem(key), REFRESH_TOKEN_KEY);
    expect(rotated).toBeTruthy();
    expect(rotated).not.toBe(firstRefreshToken);

    // A reload keeps the session (the refresh token in localStorage makes a new access token).
    await page.reload();
    await visible(page.getByRole('heading', { name: 'Feed', level: 1 }));
    await visible(accountLink(page, student.nickname));

    // Logout ends the session on the server too: its refresh token no longer works.
    const beforeLogout = await page.evaluate((key) => localStorage.getItem(key), REFRESH_TOKEN_KEY);
    await accountLink(page, student.nickname).click();
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.waitForURL('**/entrar**');
    await visible(page.getByRole('heading', { name: 'Entrar', level: 1 }));
    expect(await page.evaluate((key) => localStorage.getItem(key), REFRESH_TOKEN_KEY)).toBeNull();
    const refresh = await fetch(`${baseUrl}/autenticacao/atualizar-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: beforeLogout }),
    });
    expect(refresh.status).toBe(401);

    await page.reload();
    await visible(page.getByRole('heading', { name: 'Entrar', level: 1 }));
    expect(
      consoleErrors.filter((text) => /Content Security Policy|Refused to/i.test(text)),
    ).toEqual([]);
    await context.close();
  });

  it('is usable with the keyboard alone, with a visible focus', async () => {
    const student = await register('teclado');
    const { page, context } = await newPage(browser(), baseUrl);
    await page.goto('/entrar');
    await visible(page.getByRole('heading', { name: 'Entrar', level: 1 }));

    // The first Tab reaches the skip link; then the header links; then the form.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      'Pular para o conteúdo',
    );
    const outline = await page.evaluate(
      () => getComputedStyle(document.activeElement!).outlineStyle,
    );
    expect(outline).toBe('solid');
    await page.getByLabel('E-mail').focus();
    await page.keyboard.type(student.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(student.senha);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/feed');
    await visible(page.getByRole('heading', { name: 'Feed', level: 1 }));
    // After a navigation the focus is on the new page's heading.
    await page.getByRole('link', { name: 'Partidas', exact: true }).press('Enter');
    await visible(page.getByRole('heading', { name: 'Partidas', level: 1 }));
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await context.close();
  });

  it('keeps the session when the page is reloaded while a token refresh is under way', async () => {
    const student = await register('recarga');
    const { page, context } = await signIn(student);
    // The next refresh (the live streams renew the 5 s tokens often) reaches the server, which
    // rotates the refresh token, but its answer never reaches the page: the page is reloaded.
    const rotated = new Promise<void>((resolve) => {
      void page.route('**/trpc/auth.refresh**', async (route) => {
        await route.fetch();
        resolve();
      });
    });
    await rotated;
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.reload();
    // The new page only has the rotated token: a lost answer, not a stolen token.
    await visible(page.getByRole('heading', { name: 'Feed', level: 1 }));
    await visible(accountLink(page, student.nickname));
    expect(page.url()).toContain('/feed');
    await context.close();
  });
});
