import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import {
  apiCall,
  apiLogin,
  loginViaUi,
  newPage,
  screenshot,
  visible,
  type Student,
} from './support/browser';
import { openComposer } from './support/posts';
import { describeE2e } from './support/suite';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** Issue 35's list, item by item, as a student on a phone (390×844, touch). */
describeE2e('no telefone, item a item', ({ baseUrl, browser, register }) => {
  async function phoneSession(student: Student) {
    const session = await newPage(browser(), baseUrl, { phone: true });
    await loginViaUi(session.page, student.email, student.senha);
    return session;
  }
  /** A REST call as `student` (a fresh token each time: they live 5 s in these tests). */
  async function as(student: Student, method: string, path: string, body: unknown, status: number) {
    const { accessToken } = await apiLogin(baseUrl, student);
    return apiCall(baseUrl, accessToken, method, path, body, status);
  }
  async function userId(student: Student) {
    return (await apiLogin(baseUrl, student)).usuario.id;
  }

  it('notifications: tapping one reads it and goes there; group ones are links; times are relative', async () => {
    const owner = await register('dona');
    const asker = await register('pedinte');
    const group = (await as(
      owner,
      'POST',
      '/group',
      { name: `Coral ${owner.nickname}`, groupType: 'ACADEMIC' },
      201,
    ))!;
    const request = (await as(asker, 'POST', `/group/${String(group.id)}/requests`, {}, 201))!;
    await as(
      owner,
      'POST',
      `/group/${String(group.id)}/requests/${String(request.id)}/approve`,
      {},
      200,
    );

    const { page, context } = await phoneSession(asker);
    const nav = page.getByRole('navigation', { name: 'Principal' });
    await visible(nav.getByRole('link', { name: 'Notificações, 1 não lidas' }));
    await nav.getByRole('link', { name: /^Notificações/ }).tap();
    const item = page.getByRole('link', { name: /pedido para entrar no grupo .* foi aprovado/ });
    await visible(item);
    await visible(page.locator('.notification time', { hasText: /^há |agora/ }));
    await screenshot(page, 'telefone-notificacoes', { screen: true });
    await item.tap();
    await visible(page.getByRole('heading', { name: `Coral ${owner.nickname}`, level: 1 }));
    await visible(nav.getByRole('link', { name: 'Notificações', exact: true }));
    await nav.getByRole('link', { name: /^Notificações/ }).tap();
    await page.getByRole('switch', { name: 'Só as não lidas' }).tap();
    await visible(page.getByText('Nenhuma notificação por ler.'));
    await context.close();
  });

  it('attendance reads "Vou participar" on the card and on the event page; an event goes to the calendar and is shared', async () => {
    const author = await register('festa');
    const guest = await register('convidado');
    const title = `Sarau ${author.nickname}`;
    const event = {
      title,
      type: 'EVENT',
      eventDate: inDays(4),
      location: 'Pátio',
      author: author.nickname,
      authorId: await userId(author),
    };
    const post = (await as(author, 'POST', '/post', event, 201))!;
    const { page, context } = await phoneSession(guest);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const card = page.locator('article.post-item', { hasText: title });
    await card.getByRole('button', { name: `Vou participar “${title}”`, pressed: false }).tap();
    await visible(card.getByRole('button', { name: `Vou participar “${title}”`, pressed: true }));
    await card.getByRole('link', { name: title }).tap();
    await visible(page.getByRole('button', { name: '✓ Vou participar (1)', pressed: true }));

    await page.getByRole('button', { name: `Compartilhar “${title}”` }).tap();
    await visible(page.getByRole('status').filter({ hasText: /Link copiado|Copie o link/ }));
    const copied = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
    if (copied) expect(copied).toBe(`${baseUrl}/feed/${String(post.id)}`);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Adicionar à agenda' }).tap(),
    ]);
    const file = readFileSync((await download.path())!, 'utf8');
    expect(file).toContain(`SUMMARY:${title}`);
    await context.close();
  });

  it('a cancelled match offers nothing: no free spot, no team switch, no leaving, no calendar', async () => {
    const organiser = await register('organiza');
    const player = await register('jogador');
    const body = {
      userId: await userId(organiser),
      title: `Racha ${organiser.nickname}`,
      maxPlayers: 6,
      MatchDate: inDays(3),
      location: 'Quadra 2',
    };
    const match = (await as(organiser, 'POST', '/match', body, 201))!;
    await as(player, 'POST', `/match/${String(match.id)}/subscribe`, {}, 201);
    await as(organiser, 'PATCH', `/match/${String(match.id)}`, { MatchStatus: 'CANCELADA' }, 200);

    const { page, context } = await phoneSession(player);
    await page.goto(`/partidas/${String(match.id)}`);
    await visible(page.getByText('Esta partida foi cancelada.'));
    expect(await page.getByText(/vaga livre|vagas livres/).count()).toBe(0);
    for (const name of [/Trocar/, 'Sair da partida', 'Adicionar à agenda', 'Inscrever-me'])
      expect(await page.getByRole('button', { name }).count()).toBe(0);
    await screenshot(page, 'telefone-partida-cancelada', { screen: true });
    await context.close();
  });

  it("a group's page lists its posts, events and matches; its description's links work; members are rows", async () => {
    const owner = await register('atletica');
    const name = `Atlética ${owner.nickname}`;
    const group = (await as(
      owner,
      'POST',
      '/group',
      { name, groupType: 'ATHLETIC', description: 'Regras em https://example.org/regras' },
      201,
    ))!;
    const id = await userId(owner);
    const gid = String(group.id);
    await as(
      owner,
      'POST',
      '/post',
      {
        title: `Aviso ${owner.nickname}`,
        type: 'GENERAL',
        author: owner.nickname,
        authorId: id,
        groupId: gid,
      },
      201,
    );
    await as(
      owner,
      'POST',
      '/post',
      {
        title: `Festa ${owner.nickname}`,
        type: 'EVENT',
        eventDate: inDays(5),
        location: 'Sede',
        author: owner.nickname,
        authorId: id,
        groupId: gid,
      },
      201,
    );
    await as(
      owner,
      'POST',
      '/match',
      {
        userId: id,
        title: `Treino ${owner.nickname}`,
        maxPlayers: 10,
        MatchDate: inDays(2),
        location: 'Ginásio',
        groupId: gid,
      },
      201,
    );

    const { page, context } = await phoneSession(owner);
    await page.goto(`/grupos/${gid}`);
    await visible(page.getByRole('heading', { name, level: 1 }));
    expect(
      await page.getByRole('link', { name: 'https://example.org/regras' }).getAttribute('href'),
    ).toBe('https://example.org/regras');
    await visible(page.getByRole('link', { name: `Aviso ${owner.nickname}` }));
    await screenshot(page, 'telefone-grupo', { screen: true });
    await page.getByRole('tab', { name: 'Eventos' }).tap();
    await visible(page.getByRole('link', { name: `Festa ${owner.nickname}` }));
    await page.getByRole('tab', { name: 'Partidas' }).tap();
    await visible(page.getByRole('link', { name: `Treino ${owner.nickname}` }));
    await page.getByRole('tab', { name: 'Membros' }).tap();
    const row = page.locator('.person', { hasText: `@${owner.nickname}` });
    await visible(row);
    expect(await row.innerText()).toContain('Dono');
    await context.close();
  });

  it('comments read oldest first with the box below them; a comment can be reported', async () => {
    const author = await register('pergunta');
    const other = await register('resposta');
    const post = (await as(
      author,
      'POST',
      '/post',
      {
        title: `Dúvida ${author.nickname}`,
        type: 'GENERAL',
        author: author.nickname,
        authorId: await userId(author),
      },
      201,
    ))!;
    await as(
      other,
      'POST',
      `/post/${String(post.id)}/comment`,
      { content: 'Primeira resposta' },
      201,
    );
    await as(
      author,
      'POST',
      `/post/${String(post.id)}/comment`,
      { content: 'Segunda, depois' },
      201,
    );

    const { page, context } = await phoneSession(other);
    await page.goto(`/feed/${String(post.id)}`);
    const comments = page.locator('.comments .comment .content');
    await visible(comments.first());
    expect(await comments.allInnerTexts()).toEqual(['Primeira resposta', 'Segunda, depois']);
    const box = (await page.getByLabel('Seu comentário').boundingBox())!;
    const last = (await page.locator('.comments .comment').last().boundingBox())!;
    expect(box.y).toBeGreaterThan(last.y);

    await page.getByRole('button', { name: `Denunciar o comentário de @${author.nickname}` }).tap();
    await page.getByLabel('Motivo da denúncia do comentário').fill('Fora do tema');
    await page.getByRole('button', { name: 'Enviar denúncia' }).tap();
    await visible(page.getByRole('status').filter({ hasText: 'Denúncia enviada' }));
    await screenshot(page, 'telefone-post', { screen: true });
    await context.close();
  });

  it("the event composer reports every missing field in one round; after leaving, the login page doesn't offer to go back", async () => {
    const student = await register('formulario');
    const { page, context } = await phoneSession(student);
    const composer = await openComposer(page);
    await composer.getByLabel('Tipo').selectOption('EVENT');
    await composer.getByRole('button', { name: 'Publicar' }).tap();
    for (const label of ['Título', 'Início', 'Local'])
      expect(await composer.getByLabel(label).getAttribute('aria-invalid')).toBe('true');
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: /^Conta de @/ }).tap();
    await page.getByRole('button', { name: 'Sair' }).tap();
    await page.waitForURL('**/entrar');
    await visible(page.getByRole('heading', { name: 'Entrar', level: 1 }));
    expect(await page.getByText('continuar de onde parou').count()).toBe(0);
    await context.close();
  });
});
