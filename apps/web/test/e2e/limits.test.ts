import { LIMITS } from '@campus/core/schemas';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { apiCall, apiLogin, loginViaUi, newPage, visible } from './support/browser';
import { openComposer } from './support/posts';
import { describeE2e } from './support/suite';

/*
 * One limit per field, defined once (core's LIMITS): the page lets one type exactly that many
 * characters (the rendered maxLength), and the server accepts that many and refuses one more.
 * Nothing here changes a limit; it fails if the web, the API or a column drifts apart.
 */

const U = LIMITS.user;
const REGISTER = {
  nome: U.nome.max,
  nickname: U.nickname.max,
  email: U.email.max,
  senha: U.senha.max,
  confirmacaoSenha: U.senha.max,
  nacionalidade: U.nacionalidade.max,
  instituicao: U.instituicao.max,
  curso: U.curso.max,
  periodo: U.periodo.max,
};
const POST = {
  title: LIMITS.post.title.max,
  content: LIMITS.post.content.max,
  location: LIMITS.post.location.max,
};
const MATCH = {
  title: LIMITS.match.title.max,
  description: LIMITS.match.description.max,
  location: LIMITS.match.location.max,
  teamNameA: LIMITS.match.teamName.max,
  teamNameB: LIMITS.match.teamName.max,
};

/** The maxLength each named control of the page's form renders. */
async function renderedMaxLengths(page: Page, scope: string, names: string[]) {
  const lengths: Record<string, number> = {};
  for (const name of names) {
    const control = page.locator(`${scope} [name="${name}"]`).first();
    lengths[name] = await control.evaluate((el) => (el as HTMLInputElement).maxLength);
  }
  return lengths;
}

/** `n` characters of valid text for the field (an e-mail ends in a domain, a nickname is lower case). */
function text(field: string, n: number) {
  if (field === 'email') return `${'a'.repeat(n - '@campus.test'.length)}@campus.test`;
  return 'a'.repeat(n);
}
const sized = (limits: Record<string, number>, extra: number) =>
  Object.fromEntries(Object.entries(limits).map(([f, n]) => [f, text(f, n + extra)]));

/** The fields a 400 names. */
async function refusedFields(response: Response) {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { issues?: { path: string }[] };
  return [...new Set((body.issues ?? []).map((issue) => issue.path))].sort();
}

const post = (baseUrl: string, path: string, body: unknown, token?: string) =>
  fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });

const sorted = (limits: Record<string, number>) => Object.keys(limits).sort();

describeE2e(
  'the web and the API agree on every length limit',
  ({ baseUrl, admin, browser, register, signIn }) => {
    it('registration', async () => {
      const { page, context } = await newPage(browser(), baseUrl);
      await page.goto('/cadastro');
      await visible(page.getByRole('heading', { name: 'Criar conta de estudante' }));
      expect(await renderedMaxLengths(page, 'form', Object.keys(REGISTER))).toEqual(REGISTER);
      await context.close();

      // At the limit every field passes (a missing escolaridade keeps the account from existing).
      const base = { dataNascimento: '2003-05-17', estado: 'SP', cidade: 'São Paulo' };
      const atLimit = { ...base, ...sized(REGISTER, 0) };
      expect(await refusedFields(await post(baseUrl, '/autenticacao/cadastro', atLimit))).toEqual([
        'escolaridade',
      ]);
      const over = { ...base, ...sized(REGISTER, 1) };
      // The confirmation has no limit of its own on the server: it must equal the password.
      const limited = sorted(REGISTER).filter((field) => field !== 'confirmacaoSenha');
      expect(await refusedFields(await post(baseUrl, '/autenticacao/cadastro', over))).toEqual(
        [...limited, 'escolaridade'].sort(),
      );
    });

    it('posts, comments and reports', async () => {
      const [author, reader] = await Promise.all([register('limite'), register('leitor')]);
      const { accessToken, usuario } = await apiLogin(baseUrl, author);
      const created = await apiCall(
        baseUrl,
        accessToken,
        'POST',
        '/post',
        { title: 'Limites', type: 'GENERAL', author: usuario.nickname, authorId: usuario.id },
        201,
      );

      const a = await signIn(author);
      const composer = await openComposer(a.page);
      await composer.getByLabel('Tipo').selectOption('EVENT');
      expect(await renderedMaxLengths(a.page, '[role="dialog"]', Object.keys(POST))).toEqual(POST);
      await a.context.close();

      const r = await signIn(reader);
      await r.page.goto(`/feed/${String(created!.id)}`);
      await visible(r.page.getByRole('heading', { name: 'Limites', level: 1 }));
      expect(
        await renderedMaxLengths(r.page, 'section[aria-labelledby="comments-title"]', ['content']),
      ).toEqual({
        content: LIMITS.comment.content.max,
      });
      expect(await renderedMaxLengths(r.page, 'details.report', ['reason'])).toEqual({
        reason: LIMITS.report.reason.max,
      });
      await r.context.close();

      const { accessToken: token } = await apiLogin(baseUrl, author);
      const event = {
        type: 'EVENT',
        author: usuario.nickname,
        authorId: usuario.id,
        eventDate: '2031-03-10T14:00:00Z',
        eventFinishDate: 'not a date', // keeps the post from being created
      };
      const created1 = (body: unknown) => post(baseUrl, '/post', body, token);
      expect(await refusedFields(await created1({ ...event, ...sized(POST, 0) }))).toEqual([
        'eventFinishDate',
      ]);
      expect(await refusedFields(await created1({ ...event, ...sized(POST, 1) }))).toEqual(
        [...sorted(POST), 'eventFinishDate'].sort(),
      );

      // An unknown post: at the limit the body passes (404), one more is refused (400).
      const nowhere = '/post/00000000-0000-4000-8000-000000000000';
      for (const [path, field, max] of [
        ['comment', 'content', LIMITS.comment.content.max],
        ['report', 'reason', LIMITS.report.reason.max],
      ] as const) {
        const at = await post(baseUrl, `${nowhere}/${path}`, { [field]: text(field, max) }, token);
        expect(at.status).toBe(404);
        const over = await post(
          baseUrl,
          `${nowhere}/${path}`,
          { [field]: text(field, max + 1) },
          token,
        );
        expect(await refusedFields(over)).toEqual([field]);
      }
    });

    it('matches', async () => {
      const organizer = await register('organiza');
      const o = await signIn(organizer);
      await o.page.getByRole('link', { name: 'Partidas', exact: true }).click();
      await o.page.getByText('Criar uma partida').click();
      expect(await renderedMaxLengths(o.page, 'details.composer', Object.keys(MATCH))).toEqual(
        MATCH,
      );
      const players = o.page.locator('details.composer [name="maxPlayers"]');
      expect([await players.getAttribute('min'), await players.getAttribute('max')]).toEqual([
        String(LIMITS.match.maxPlayers.min),
        String(LIMITS.match.maxPlayers.max),
      ]);
      await o.context.close();

      const { accessToken, usuario } = await apiLogin(baseUrl, organizer);
      // A date in the past keeps the match from being created.
      const base = { userId: usuario.id, MatchDate: '2001-01-01T10:00:00Z' };
      const create = (body: unknown) => post(baseUrl, '/match', body, accessToken);
      const { maxPlayers } = LIMITS.match;
      expect(
        await refusedFields(
          await create({ ...base, ...sized(MATCH, 0), maxPlayers: maxPlayers.max }),
        ),
      ).toEqual(['MatchDate']);
      expect(
        await refusedFields(
          await create({ ...base, ...sized(MATCH, 1), maxPlayers: maxPlayers.max + 1 }),
        ),
      ).toEqual([...sorted(MATCH), 'MatchDate', 'maxPlayers'].sort());
      expect(
        await refusedFields(
          await create({ ...base, ...sized(MATCH, 0), maxPlayers: maxPlayers.min - 1 }),
        ),
      ).toEqual(['MatchDate', 'maxPlayers']);
    });

    it('the administration’s search', async () => {
      const { page, context } = await newPage(browser(), baseUrl);
      await loginViaUi(page, admin.email, admin.password);
      await page.goto('/administracao');
      const max = LIMITS.userSearch.max;
      expect(
        await page.getByLabel('Buscar').evaluate((el) => (el as HTMLInputElement).maxLength),
      ).toBe(max);
      await context.close();

      const { accessToken } = await apiLogin(baseUrl, {
        email: admin.email,
        senha: admin.password,
      });
      const search = (busca: string) =>
        fetch(`${baseUrl}/admin/usuarios?busca=${busca}`, {
          headers: { authorization: `Bearer ${accessToken}` },
        });
      expect((await search('a'.repeat(max))).status).toBe(200);
      expect(await refusedFields(await search('a'.repeat(max + 1)))).toEqual(['busca']);
    });
  },
);
