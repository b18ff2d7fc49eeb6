import { filterBitOf, posts, READER_SET_MAX } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { onTestAppWithUsers, type TestUser } from '../support/app';
import {
  createEvent,
  createPost,
  expectCountersMatchRows,
  expectedSet,
  flagOf,
  type PerUserKind,
} from '../support/feed';

/*
 * The reader's flags read from each post's exact set of likers / attendees while they are at
 * most READER_SET_MAX, and past it from the filter and a probe function (core feed/records.ts,
 * feed/locks.ts). The set must stay exactly the rows under simultaneous changes, come back when a
 * post drops within the limit (by unlikes or account deletions), and the flags must be exact on
 * both sides of the limit, in the list and the read alike.
 */

const {
  t,
  users: [author],
} = onTestAppWithUsers({});

const filterColumn = { like: posts.likersFilter, attendance: posts.attendeesFilter } as const;

const makeUsers = (n: number) => Promise.all(Array.from({ length: n }, () => t.createUser()));
const ids = (us: TestUser[]) => us.map((u) => u.id).sort();
const add = (u: TestUser, postId: string, kind: PerUserKind) =>
  t.request.post(`/post/${postId}/${kind}`).set(u.auth);
const withdraw = (u: TestUser, postId: string, kind: PerUserKind) =>
  t.request.delete(`/post/${postId}/${kind}`).set(u.auth);
/** All at once; every answer must be `status`. */
async function allAtOnce(requests: Promise<{ status: number }>[], status: number) {
  const answers = await Promise.all(requests);
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => status));
}

const newPost = (kind: PerUserKind) =>
  kind === 'like' ? createPost(t, author!) : createEvent(t, author!);

/** The post's set as stored (sorted), or null. */
async function storedSet(postId: string, kind: PerUserKind) {
  const [row] = await t.db
    .select({ likers: posts.likers, attendees: posts.attendees })
    .from(posts)
    .where(eq(posts.id, postId));
  const set = kind === 'like' ? row!.likers : row!.attendees;
  return set ? [...set].sort() : null;
}

/** Users not in the post, one whose bit is in its filter (the probe runs) and one whose is not. */
async function outsiders(postId: string, kind: PerUserKind) {
  const [row] = await t.db
    .select({ filter: filterColumn[kind] })
    .from(posts)
    .where(eq(posts.id, postId));
  const filter = BigInt(row!.filter);
  const found: { probed?: TestUser; skipped?: TestUser } = {};
  for (let tries = 0; tries < 500 && !(found.probed && found.skipped); tries++) {
    const user = await t.createUser();
    if ((filter & BigInt(filterBitOf(user.id))) !== 0n) found.probed ??= user;
    else found.skipped ??= user;
  }
  return found;
}

for (const kind of ['like', 'attendance'] as const) {
  describe(`${kind}: the post's exact set`, () => {
    it(`holds the users while at most ${READER_SET_MAX}, is null past it, comes back when they drop within it; the flags exact throughout`, async () => {
      const post = await newPost(kind);
      const members = await makeUsers(READER_SET_MAX + 2);
      const within = members.slice(0, READER_SET_MAX);
      const past = members.slice(READER_SET_MAX);

      await allAtOnce(
        within.map((u) => add(u, post.id, kind)),
        201,
      );
      expect(await storedSet(post.id, kind)).toEqual(ids(within));
      await expectCountersMatchRows(t, post.id);
      expect(await flagOf(t, within[0]!, post.id, author!.id, kind)).toBe(true);
      expect(await flagOf(t, within.at(-1)!, post.id, author!.id, kind)).toBe(true);
      expect(await flagOf(t, past[0]!, post.id, author!.id, kind)).toBe(false);
      expect(await flagOf(t, author!, post.id, author!.id, kind)).toBe(false);

      // Past the limit: the filter and the probe answer.
      await allAtOnce(
        past.map((u) => add(u, post.id, kind)),
        201,
      );
      expect(await storedSet(post.id, kind)).toBeNull();
      await expectCountersMatchRows(t, post.id);
      for (const member of [within[0]!, past[1]!]) {
        expect(await flagOf(t, member, post.id, author!.id, kind)).toBe(true);
      }
      const { probed, skipped } = await outsiders(post.id, kind);
      expect(probed && (await flagOf(t, probed, post.id, author!.id, kind))).toBe(false);
      expect(skipped && (await flagOf(t, skipped, post.id, author!.id, kind))).toBe(false);

      // Three leave at once: back within the limit, the set is read again from the rows.
      const leaving = [within[0]!, within[1]!, past[0]!];
      await allAtOnce(
        leaving.map((u) => withdraw(u, post.id, kind)),
        204,
      );
      const staying = members.filter((u) => !leaving.includes(u));
      expect(await storedSet(post.id, kind)).toEqual(ids(staying));
      await expectCountersMatchRows(t, post.id);
      expect(await flagOf(t, within[0]!, post.id, author!.id, kind)).toBe(false);
      expect(await flagOf(t, past[1]!, post.id, author!.id, kind)).toBe(true);
    });

    it('stays exactly the rows when many add and remove at once across the limit', async () => {
      const post = await newPost(kind);
      const first = await makeUsers(READER_SET_MAX - 4);
      const second = await makeUsers(12);
      await allAtOnce(
        first.map((u) => add(u, post.id, kind)),
        201,
      );
      // 12 arrive while 10 of the first leave: the count passes the limit or not, by the order
      // the locks are granted; either way the set ends as the rows say.
      const leaving = first.slice(0, 10);
      const answers = await Promise.all([
        ...second.map((u) => add(u, post.id, kind)),
        ...leaving.map((u) => withdraw(u, post.id, kind)),
      ]);
      expect(answers.map((a) => a.status)).toEqual([
        ...second.map(() => 201),
        ...leaving.map(() => 204),
      ]);
      const state = await expectCountersMatchRows(t, post.id);
      expect(await storedSet(post.id, kind)).toEqual(
        expectedSet(ids([...first.slice(10), ...second])),
      );
      expect(state[kind === 'like' ? 'likes' : 'attendances']).toBe(READER_SET_MAX - 2);
    });
  });
}

describe('account deletion and the sets', () => {
  it('takes the person out of each set, and reads a set again when a post drops within the limit', async () => {
    const small = await createPost(t, author!);
    const large = await createEvent(t, author!);
    const likers = await makeUsers(READER_SET_MAX + 1);
    const [leaving, ...staying] = likers;
    await allAtOnce(
      [add(leaving!, small.id, 'like'), ...likers.map((u) => add(u, large.id, 'attendance'))],
      201,
    );
    expect(await storedSet(large.id, 'attendance')).toBeNull();

    const gone = await t.request
      .delete('/autenticacao/conta')
      .set(leaving!.auth)
      .send({ senha: leaving!.password });
    expect(gone.status).toBe(204);

    expect(await storedSet(small.id, 'like')).toEqual([]);
    expect(await storedSet(large.id, 'attendance')).toEqual(ids(staying));
    await expectCountersMatchRows(t, small.id);
    await expectCountersMatchRows(t, large.id);
    expect(await flagOf(t, staying[0]!, large.id, author!.id, 'attendance')).toBe(true);
  });
});
