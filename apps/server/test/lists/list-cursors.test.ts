import { postComments } from '@campus/core';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers } from '../support/app';
import { followCursors, restPage, tampered, trpcPage } from '../support/cursors';
import { commentOn, createPost } from '../support/feed';
import { createGroup } from '../support/groups';
import { createMatch, daysFromNow } from '../support/matches';

/**
 * Cursors of the other lists (docs/contract/cursors.md): comments of a post, notifications,
 * matches and groups, over REST and /trpc, while items come and go between pages.
 */
const { t, users } = onTestAppWithUsers({}, {});
const [author, reader] = users;
const ids = (items: { id: string }[]) => items.map((i) => i.id);
const withCursor = (cursor: string | undefined): Record<string, string> =>
  cursor ? { cursor } : {};

describe('cursors of the other lists', () => {
  it('comments: every surviving comment once, newest first; a hidden one stays out', async () => {
    const post = await createPost(t, author);
    const made: string[] = [];
    for (let i = 0; i < 8; i++)
      made.unshift((await commentOn(t, post.id, author, `Comment ${i}`)).body.id as string);
    const [gone, hidden] = [made[5]!, made[6]!];
    const seen = await followCursors<{ id: string }>(
      (cursor) =>
        restPage(t, reader, `/post/${post.id}/comment`, { limit: 3, ...withCursor(cursor) }),
      async (n) => {
        if (n !== 1) return;
        await commentOn(t, post.id, author, 'Arrives on top');
        expect((await t.request.delete(`/comment/${gone}`).set(author.auth)).status).toBe(204);
        await t.db
          .update(postComments)
          .set({ hiddenAt: sql`now()` })
          .where(eq(postComments.id, hidden));
      },
    );
    expect(ids(seen)).toEqual(made.filter((id) => id !== gone && id !== hidden));
    const overTrpc = await followCursors<{ id: string }>((cursor) =>
      trpcPage(t, reader, 'feed.listComments', { id: post.id, limit: 4, ...withCursor(cursor) }),
    );
    expect(ids(overTrpc).slice(1)).toEqual(ids(seen));
    const other = await createPost(t, author);
    const first = await restPage(t, reader, `/post/${post.id}/comment`, { limit: 2 });
    const res = await t.request
      .get(`/post/${other.id}/comment`)
      .query({ cursor: first.meta.nextCursor! })
      .set(reader.auth);
    expect(expectError(res, 400, 'BAD_REQUEST').reason).toBe('INVALID_CURSOR');
  });

  it('notifications: newest first, the unread filter bound to its cursors', async () => {
    const post = await createPost(t, author);
    for (let i = 0; i < 7; i++) await commentOn(t, post.id, reader, `Hello ${i}`);
    const all = (await restPage<{ id: string }>(t, author, '/notifications', { limit: 50 })).data;
    const seen = await followCursors<{ id: string }>(
      (cursor) => trpcPage(t, author, 'notifications.list', { limit: 3, ...withCursor(cursor) }),
      () => commentOn(t, post.id, reader, 'Arrives on top'),
    );
    expect(ids(seen)).toEqual(ids(all));
    const unread = await restPage(t, author, '/notifications', { unread: 'true', limit: 2 });
    const res = await t.request
      .get('/notifications')
      .query({ cursor: unread.meta.nextCursor! })
      .set(author.auth);
    expect(expectError(res, 400, 'BAD_REQUEST').reason).toBe('INVALID_CURSOR');
  });

  it('matches: by MatchDate then id; a match added ahead is met, a deleted one is not', async () => {
    const made = [];
    for (const day of [3, 1, 4, 1, 5, 9, 2, 6])
      made.push(await createMatch(t, author, { MatchDate: daysFromNow(day) }));
    const gone = made[5]!.id; // day 9: not yet reached after the first page
    const seen = await followCursors<{ id: string; MatchDate: string }>(
      (cursor) => restPage(t, reader, '/match', { limit: 3, ...withCursor(cursor) }),
      async (n) => {
        if (n !== 1) return;
        expect((await t.request.delete(`/match/${gone}`).set(author.auth)).status).toBe(204);
        await createMatch(t, author, { MatchDate: daysFromNow(8) });
      },
    );
    const dates = seen.map((m) => m.MatchDate);
    expect(dates).toEqual([...dates].sort());
    expect(ids(seen)).not.toContain(gone);
    expect(seen).toHaveLength(8);
    expect(new Set(ids(seen)).size).toBe(8);
  });

  it('groups: by name ignoring case and accents, over /trpc, and a tampered cursor refused', async () => {
    for (const name of ['Ômega', 'alfa', 'Beta', 'Épsilon', 'delta', 'Gama'])
      await createGroup(t, author, { name: `${name} Clube` });
    const all = (await restPage<{ name: string }>(t, reader, '/group', { limit: 50 })).data;
    const seen = await followCursors<{ name: string }>((cursor) =>
      trpcPage(t, reader, 'groups.list', { limit: 4, ...withCursor(cursor) }),
    );
    expect(seen.map((g) => g.name)).toEqual(all.map((g) => g.name));
    const first = await restPage(t, reader, '/group', { limit: 2 });
    const res = await t.request
      .get('/group')
      .query({ cursor: tampered(first.meta.nextCursor!) })
      .set(reader.auth);
    expect(expectError(res, 400, 'BAD_REQUEST').reason).toBe('INVALID_CURSOR');
  });
});
