import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { expect, it } from 'vitest';
import { accountLink, apiCall, apiLogin, newPage, visible, type Student } from './support/browser';
import { publishViaApi } from './support/posts';
import { describeE2e } from './support/suite';

/*
 * A returning student's first load (session/early.ts): the page's first script renews the stored
 * session over REST, under the cross-tab lock, and reads the feed's first page, which the app then
 * adopts instead of asking again.
 */

const REFRESH_TOKEN_KEY = 'campus.refreshToken';
const RENEW = '/autenticacao/atualizar-token';

/** A browser profile holding `student`'s session as a reload would find it: a stored refresh token. */
async function returningStudent(browser: () => Browser, baseUrl: string, student: Student) {
  const { refreshToken, usuario } = await apiLogin(baseUrl, student);
  const { context, page } = await newPage(browser(), baseUrl);
  // Any file of the origin gives its localStorage without running the app.
  await page.goto('/manifest.webmanifest');
  await page.evaluate(
    ([key, token]) => localStorage.setItem(key!, token!),
    [REFRESH_TOKEN_KEY, refreshToken],
  );
  return { context, page, refreshToken, usuario };
}

/** The requests of `context` whose path is one of `paths` (any query), in the order sent. */
function requestsTo(context: BrowserContext, ...paths: string[]) {
  const seen: Request[] = [];
  context.on('request', (request) => {
    if (paths.includes(new URL(request.url()).pathname)) seen.push(request);
  });
  return seen;
}

/** The refresh token a renewal sent, and the one its answer issued (over REST or /trpc). */
async function rotation(request: Request) {
  const body = (await (await request.response())!.json()) as {
    dados?: { refreshToken: string };
    result?: { data: { dados: { refreshToken: string } } };
  };
  const issued = body.dados ?? body.result!.data.dados;
  return {
    sent: (request.postDataJSON() as { refreshToken: string }).refreshToken,
    issued: issued.refreshToken,
  };
}

const storedToken = (page: Page) =>
  page.evaluate((key) => localStorage.getItem(key), REFRESH_TOKEN_KEY);

describeE2e('primeira carga de quem volta', ({ baseUrl, admin, browser, register }) => {
  it('renews once and reads the first page once, from the first script, with the address’s filters', async () => {
    const student = await register('volta');
    const word = `cedinho${Date.now().toString(36)}`;
    await publishViaApi(
      baseUrl,
      student,
      { title: `Quem topa ${word} amanhã?`, type: 'GENERAL' },
      { title: 'Outra publicação qualquer', type: 'GENERAL' },
    );
    const { context, page, refreshToken } = await returningStudent(browser, baseUrl, student);
    const renewals = requestsTo(context, RENEW);
    const firstPages = requestsTo(context, '/post');
    const trpcCalls: string[] = [];
    context.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/trpc/')) trpcCalls.push(pathname);
    });

    await page.goto(`/feed?busca=${word}`);
    await visible(page.getByText(`Quem topa ${word} amanhã?`));
    await visible(accountLink(page, student.nickname));
    expect(await page.getByText('Outra publicação qualquer').count()).toBe(0);

    // The first renewal of all (it had the token as stored); the app's own come later, when the
    // live streams renew these tests' 5-second access tokens.
    expect(renewals).toHaveLength(1);
    expect(renewals[0]!.postDataJSON()).toEqual({ refreshToken });
    expect(firstPages.map((r) => new URL(r.url()).search)).toEqual([`?limit=10&q=${word}`]);
    // The app took that page: it did not ask for the feed again.
    expect(trpcCalls.filter((path) => path.includes('feed.list'))).toEqual([]);
    // The rotated token was stored, and the chain lives on: a reload keeps the session.
    expect(await storedToken(page)).not.toBe(refreshToken);
    await page.reload();
    await visible(accountLink(page, student.nickname));
    expect(renewals[1]!.postDataJSON()).not.toEqual({ refreshToken });
    await context.close();
  });

  it('two tabs opened at once renew one after the other, each with the token the one before issued', async () => {
    const student = await register('abas');
    const { context, page, refreshToken } = await returningStudent(browser, baseUrl, student);
    // The app's own refreshes too: the live streams renew these tests' 5-second access tokens,
    // and one may come between the two tabs' first renewals.
    const renewals = requestsTo(context, RENEW, '/trpc/auth.refresh');
    const second = await context.newPage();
    await Promise.all([page.goto('/feed'), second.goto('/partidas')]);
    await visible(accountLink(page, student.nickname));
    await visible(accountLink(second, student.nickname));
    await visible(second.getByRole('heading', { name: 'Partidas', level: 1 }));

    const chain = await Promise.all(renewals.map(rotation));
    expect(renewals.filter((r) => r.url().endsWith(RENEW))).toHaveLength(2);
    // One chain: never two renewals with one token (the lock), so none presented a rotated one.
    expect(chain.map((link) => link.sent)).toEqual([
      refreshToken,
      ...chain.slice(0, -1).map((link) => link.issued),
    ]);
    // The chain is whole: the later tab still renews after a reload.
    await second.reload();
    await visible(accountLink(second, student.nickname));
    await context.close();
  });

  it('a renewal whose answer is lost to a reload: the next load keeps the session', async () => {
    const student = await register('perdida');
    const { context, page } = await returningStudent(browser, baseUrl, student);
    // The server rotates the token, but its answer never reaches the page: it is reloaded.
    const rotated = new Promise<void>((resolve) => {
      void page.route(`**${RENEW}`, async (route) => {
        await route.fetch();
        resolve();
      });
    });
    void page.goto('/feed').catch(() => {});
    await rotated;
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.reload();
    // The new page has only the token already rotated: a lost answer, not a stolen token.
    await visible(accountLink(page, student.nickname));
    await visible(page.getByRole('heading', { name: 'Feed', level: 1 }));
    await context.close();
  });

  it('a blocked account opens on the login page, which says why', async () => {
    const student = await register('barrado');
    const { context, page, usuario } = await returningStudent(browser, baseUrl, student);
    const { accessToken } = await apiLogin(baseUrl, { email: admin.email, senha: admin.password });
    await apiCall(
      baseUrl,
      accessToken,
      'PATCH',
      `/admin/usuarios/${usuario.id}/status`,
      { status: 'INATIVO' },
      200,
    );

    await page.goto('/feed');
    await page.waitForURL('**/entrar**');
    await visible(
      page.getByRole('alert').filter({ hasText: 'sua conta foi desativada por um administrador' }),
    );
    expect(await storedToken(page)).toBeNull();
    await context.close();
  });
});
