import {
  postAttendances,
  postComments,
  postLikes,
  postReports,
  posts,
  rowCounts,
} from '@campus/core';
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp, TestUser } from './app';

/** Test helpers of the feed suites: request bodies, posts made over HTTP, rows read back. */

export const generalBody = (author: TestUser, overrides: Record<string, unknown> = {}) => ({
  title: 'Study group tonight',
  content: 'Linear algebra, room 12',
  type: 'GENERAL',
  author: author.nickname,
  authorId: author.id,
  ...overrides,
});

export const eventBody = (author: TestUser, overrides: Record<string, unknown> = {}) => ({
  title: 'Campus cup final',
  content: 'Come and cheer',
  type: 'EVENT',
  author: author.nickname,
  authorId: author.id,
  eventDate: '2031-05-10T18:00:00.000Z',
  eventFinishDate: '2031-05-10T20:00:00.000Z',
  location: 'Main stadium',
  ...overrides,
});

export type PostBody = ReturnType<typeof generalBody>;

/** Creates a post over HTTP (201 asserted) and returns the response body. */
export async function createPost(
  t: TestApp,
  author: TestUser,
  body: Record<string, unknown> = generalBody(author),
) {
  const res = await t.request.post('/post').set(author.auth).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string } & Record<string, unknown>;
}

export const createEvent = (
  t: TestApp,
  author: TestUser,
  overrides: Record<string, unknown> = {},
) => createPost(t, author, eventBody(author, overrides));

/** POST /post/{id}/comment as `as`: the response, unchecked (a test may expect a refusal). */
export const commentOn = (t: TestApp, postId: string, as: TestUser, content: string) =>
  t.request.post(`/post/${postId}/comment`).set(as.auth).send({ content });

const childTables = {
  comments: postComments,
  likes: postLikes,
  attendances: postAttendances,
  reports: postReports,
};

/** Rows of each child table for one post, and the post's stored counters. */
/** The post's row, or undefined once it is gone. */
export const postRow = async (t: TestApp, id: string) =>
  (await t.db.select().from(posts).where(eq(posts.id, id)))[0];

export async function postState(t: TestApp, postId: string) {
  const count = async (table: (typeof childTables)[keyof typeof childTables]) => {
    const [row] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(eq(table.postId, postId));
    return row!.n;
  };
  const [post] = await t.db.select().from(posts).where(eq(posts.id, postId));
  return {
    post,
    comments: await count(childTables.comments),
    likes: await count(childTables.likes),
    attendances: await count(childTables.attendances),
    reports: await count(childTables.reports),
  };
}

/** Asserts that every counter of the post equals the rows it counts; returns the state. */
export async function expectCountersMatchRows(t: TestApp, postId: string) {
  const state = await postState(t, postId);
  expect(state.post).toBeDefined();
  expect({
    likesCount: state.post!.likesCount,
    commentsCount: state.post!.commentsCount,
    attendancesCount: state.post!.attendancesCount,
  }).toEqual({
    likesCount: state.likes,
    commentsCount: state.comments,
    attendancesCount: state.attendances,
  });
  return state;
}

/** `row_counts` for posts, and the real COUNT(*), to compare in tests. */
export async function postTotals(t: TestApp) {
  const [kept] = await t.db.select().from(rowCounts).where(eq(rowCounts.tableName, 'posts'));
  const [real] = await t.db.select({ n: sql<number>`count(*)::int` }).from(posts);
  return { kept: kept!.rowCount, real: real!.n };
}

export { UNKNOWN_ID } from './app';

/** A like or an attendance, and the reader's flag it sets. */
export type PerUserKind = 'like' | 'attendance';
export const flagName = { like: 'likedByMe', attendance: 'attendingByMe' } as const;

/**
 * The reader's flag for `kind` on the post, as `as` gets it from the list (by `authorId`) and
 * from the single read, which must agree.
 */
export async function flagOf(
  t: TestApp,
  as: TestUser,
  postId: string,
  authorId: string,
  kind: PerUserKind,
) {
  const list = await t.request.get(`/post?authorId=${authorId}&limit=50`).set(as.auth);
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  const listed = (list.body.data as Record<string, unknown>[]).find((p) => p.id === postId);
  const read = await t.request.get(`/post/${postId}`).set(as.auth);
  expect(read.status).toBe(200);
  expect(listed?.[flagName[kind]]).toBe(read.body[flagName[kind]]);
  return read.body[flagName[kind]] as boolean;
}
