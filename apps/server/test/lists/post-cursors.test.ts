import { createCursors, posts } from '@campus/core';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers } from '../support/app';
import { followCursors, moved, restPage, tampered, trpcPage } from '../support/cursors';
import { createEvent, createPost, generalBody } from '../support/feed';

/**
 * Cursors of GET /post (docs/contract/cursors.md): a reader following `nextCursor` while posts
 * are created, deleted and hidden between requests sees every surviving post exactly once, in
 * order; a page answer's cursor continues after that page; altered and foreign cursors → 400.
 */
const { t, users } = onTestAppWithUsers({}, {});
const [author, reader] = users;

type Item = { id: string; title: string };
const titles = (items: Item[]) => items.map((p) => p.title);

async function makePosts(prefix: string, n: number, extra: Record<string, unknown> = {}) {
  const made: Item[] = [];
  for (let i = 1; i <= n; i++)
    made.unshift(
      (await createPost(
        t,
        author,
        generalBody(author, { title: `${prefix} ${i}`, ...extra }),
      )) as Item,
    );
  return made; // newest first
}

describe('GET /post by cursor', () => {
  it('holds still while posts are created, deleted and hidden between pages (REST)', async () => {
    const before = await makePosts('Scroll', 11, { content: 'cursorsuite' });
    const gone = [before[1]!, before[6]!]; // one already seen, one not yet
    const hidden = before[8]!;
    const seen = await followCursors<Item>(
      (cursor) =>
        restPage(t, reader, '/post', { q: 'cursorsuite', limit: 4, ...(cursor ? { cursor } : {}) }),
      async (n) => {
        if (n !== 1) return;
        await createPost(
          t,
          author,
          generalBody(author, { title: 'Scroll new', content: 'cursorsuite' }),
        );
        for (const post of gone)
          expect((await t.request.delete(`/post/${post.id}`).set(author.auth)).status).toBe(204);
        await t.db
          .update(posts)
          .set({ hiddenAt: sql`now()` })
          .where(eq(posts.id, hidden.id));
      },
    );
    const surviving = before.filter((p) => !gone.includes(p) && p !== hidden);
    // Items seen before their deletion stay seen; nothing repeats; nothing surviving is missed.
    expect(titles(seen.filter((p) => p.title !== 'Scroll new' && p.id !== gone[0]!.id))).toEqual(
      titles(surviving),
    );
    expect(new Set(seen.map((p) => p.id)).size).toBe(seen.length);
    // The author still sees the hidden post, at its place.
    const own = await followCursors<Item>((cursor) =>
      restPage(t, author, '/post', { q: 'cursorsuite', limit: 3, ...(cursor ? { cursor } : {}) }),
    );
    expect(own.map((p) => p.id)).toContain(hidden.id);
  });

  it('the unfiltered feed over /trpc, newest first, with new posts arriving on top', async () => {
    const before = await makePosts('Trpc', 7);
    const all = (await restPage<Item>(t, reader, '/post', { limit: 50 })).data;
    const seen = await followCursors<Item>(
      (cursor) => trpcPage(t, reader, 'feed.list', { limit: 3, ...(cursor ? { cursor } : {}) }),
      () => createPost(t, author, generalBody(author, { title: 'Trpc arriving' })),
    );
    expect(titles(seen)).toEqual(titles(all));
    expect(titles(seen).slice(0, 7)).toEqual(titles(before));
  });

  it('a page answer continues by its cursor; filters keep their order (type, upcoming)', async () => {
    const list = await restPage<Item>(t, reader, '/post', { limit: 50 });
    const page2 = await restPage<Item>(t, reader, '/post', { page: 2, limit: 3 });
    expect(page2.meta.page).toBe(2);
    const page3 = await restPage<Item>(t, reader, '/post', {
      limit: 3,
      cursor: page2.meta.nextCursor!,
    });
    expect(page3.meta).toMatchObject({ page: 3, hasPrevPage: true });
    expect(titles(page3.data)).toEqual(titles(list.data.slice(6, 9)));

    for (const day of [5, 2, 9, 2, 7])
      await createEvent(t, author, {
        title: `Event day ${day}`,
        eventDate: `2031-06-0${day}T10:00:00.000Z`,
        eventFinishDate: undefined,
      });
    const upcoming = await followCursors<Item & { eventDate: string }>((cursor) =>
      restPage(t, reader, '/post', { upcoming: 'true', limit: 2, ...(cursor ? { cursor } : {}) }),
    );
    const dates = upcoming.map((p) => p.eventDate);
    expect(dates).toEqual([...dates].sort());
    expect(upcoming.filter((p) => p.title.startsWith('Event day'))).toHaveLength(5);
    const events = await followCursors<Item & { type: string }>((cursor) =>
      restPage(t, reader, '/post', { type: 'EVENT', limit: 4, ...(cursor ? { cursor } : {}) }),
    );
    expect(events.every((p) => p.type === 'EVENT')).toBe(true);
    expect(events).toHaveLength(upcoming.length);
  });

  it('refuses a malformed, altered or foreign cursor with 400 INVALID_CURSOR', async () => {
    const first = await restPage<Item>(t, reader, '/post', { limit: 2 });
    const cursor = first.meta.nextCursor!;
    const refused = async (who: typeof reader, path: string, query: Record<string, string>) => {
      const res = await t.request.get(path).query(query).set(who.auth);
      expect(expectError(res, 400, 'BAD_REQUEST').reason).toBe('INVALID_CURSOR');
    };
    await refused(reader, '/post', { cursor: 'not-a-cursor' });
    await refused(reader, '/post', { cursor: tampered(cursor) });
    await refused(reader, '/post', { cursor: moved(cursor) });
    // Another list, other filters, another reader.
    await refused(reader, '/post', { cursor, type: 'EVENT' });
    await refused(reader, '/match', { cursor });
    await refused(author, '/post', { cursor });
    // Made by a server with another secret.
    const [body] = cursor.split('.');
    const scope = JSON.stringify(['posts', reader.id, null, null, null, null, null, null]);
    const foreign = createCursors('another-server-secret-of-32-characters!').encode(
      scope,
      2,
      JSON.parse(Buffer.from(body!, 'base64url').toString()).slice(1),
    );
    await refused(reader, '/post', { cursor: foreign });
    // The same over /trpc: a tRPC BAD_REQUEST with the reason.
    const input = encodeURIComponent(JSON.stringify({ cursor: tampered(cursor) }));
    const res = await t.request.get(`/trpc/feed.list?input=${input}`).set(reader.auth);
    expect(res.status).toBe(400);
    expect(res.body.error.data).toMatchObject({ code: 'BAD_REQUEST', reason: 'INVALID_CURSOR' });
  });
});
