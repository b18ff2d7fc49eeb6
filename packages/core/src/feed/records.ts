import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { qualified } from '../db/qualified';
import { isSiteAdmin, type Actor } from '../common/actor';
import { groups } from '../groups/table';
import { users } from '../users/table';
import type { Comment, Post, PostSummary, Report, UserRecord } from './schemas';
import { postAttendances, postComments, postLikes, postReports, posts } from './table';

/*
 * Rows → responses, and the one-statement read of a whole post. The collections are aggregated
 * by the database in the same statement as the post row, so a read sees one snapshot: the
 * counters always equal the lengths of the arrays beside them.
 */

export type PostRow = typeof posts.$inferSelect;

/** Whether the post's group is verified (false without a group), read beside the post row. */
export const groupVerified = () =>
  sql<boolean>`coalesce((select ${qualified(groups.verified)} from ${groups} where ${qualified(groups.id)} = ${qualified(posts.groupId)}), false)`;

import { newestFirst } from '../common/order';

export { newestFirst };

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | null) => (value ? value.toISOString() : null);

/** The row is the summary (same 17 keys), with its timestamps as ISO text. */
export const toPostSummary = (row: PostRow & { groupVerified: boolean }): PostSummary => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  eventDate: isoOrNull(row.eventDate),
  eventFinishDate: isoOrNull(row.eventFinishDate),
});

export const toComment = (c: Comment): Comment => ({ ...c, createdAt: iso(c.createdAt) });
export const toUserRecord = (r: UserRecord): UserRecord => ({ ...r, createdAt: iso(r.createdAt) });

/** Reports as an actor may see them: the reporter's id for a site ADMIN only. */
export function toReport(r: Report, actor: Actor): Report {
  const { userId, ...report } = r;
  return {
    ...report,
    createdAt: iso(r.createdAt),
    ...(isSiteAdmin(actor) && userId ? { userId } : {}),
  };
}

/** A post with no interactions yet (creation response). */
export const withNoInteractions = (row: PostRow & { groupVerified: boolean }): Post => ({
  ...toPostSummary(row),
  comments: [],
  likes: [],
  reports: [],
  attendances: [],
});

/** `[]` when nothing matches; drivers hand JSON back parsed, or as text (guarded). */
const jsonArray = <T>(select: SQL, from: SQL, where: SQL, order: SQL) =>
  sql<
    T[] | string
  >`coalesce((select json_agg(${select} order by ${order}) from ${from} where ${where}), '[]'::json)`;

const parsed = <T>(value: T[] | string): T[] =>
  typeof value === 'string' ? (JSON.parse(value) as T[]) : value;

function userRecords(table: typeof postLikes | typeof postAttendances) {
  return jsonArray<UserRecord>(
    sql`json_build_object('id', ${table.id}, 'userId', ${table.userId}, 'userName', ${users.nickname}, 'createdAt', ${table.createdAt})`,
    sql`${table} join ${users} on ${users.id} = ${table.userId}`,
    sql`${qualified(table.postId)} = ${qualified(posts.id)}`,
    newestFirst(table.createdAt, table.id),
  );
}

/** The prepared statement behind GET /post/{id} and the update response. */
export function preparePostRead(db: Database) {
  const statement = db
    .select({
      ...getTableColumns(posts),
      groupVerified: groupVerified(),
      comments: jsonArray<Comment>(
        sql`json_build_object('id', ${postComments.id}, 'content', ${postComments.content}, 'createdAt', ${postComments.createdAt}, 'author', json_build_object('id', ${users.id}, 'userName', ${users.nickname}))`,
        sql`${postComments} join ${users} on ${users.id} = ${postComments.authorId}`,
        sql`${qualified(postComments.postId)} = ${qualified(posts.id)}`,
        newestFirst(postComments.createdAt, postComments.id),
      ),
      likes: userRecords(postLikes),
      reports: jsonArray<Report>(
        sql`json_build_object('id', ${postReports.id}, 'reason', ${postReports.reason}, 'createdAt', ${postReports.createdAt}, 'userId', ${postReports.userId})`,
        sql`${postReports}`,
        sql`${qualified(postReports.postId)} = ${qualified(posts.id)}`,
        newestFirst(postReports.createdAt, postReports.id),
      ),
      attendances: userRecords(postAttendances),
    })
    .from(posts)
    .where(eq(posts.id, sql.placeholder('id')))
    .prepare('feed_post_read');

  return async (id: string, actor: Actor): Promise<Post | undefined> => {
    const [row] = await statement.execute({ id });
    if (!row) return undefined;
    const { comments, likes, reports, attendances, ...post } = row;
    return {
      ...toPostSummary(post),
      comments: parsed(comments).map(toComment),
      likes: parsed(likes).map(toUserRecord),
      reports: parsed(reports).map((r) => toReport(r, actor)),
      attendances: parsed(attendances).map(toUserRecord),
    };
  };
}
