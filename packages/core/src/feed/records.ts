import { getTableColumns, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';
import { qualified } from '../db/qualified';
import { isSiteAdmin, type Actor } from '../common/actor';
import { groups } from '../groups/table';
import { users } from '../users/table';
import type { Comment, Post, PostSummary, Report, UserRecord } from './schemas';
import { postAttendances, postComments, postLikes, postReports, posts } from './table';
import { postMediaJson } from './post-media';
import { toMediaItem, urlOrNull } from '../media/urls';
import { avatarKeyOf } from '../media/references';
import type { MediaItemRow } from '../media/schemas';

/*
 * Rows → responses, and the one-statement read of a post. The embedded collections are aggregated
 * by the database in the same statement as the post row (one snapshot); each holds at most
 * EMBEDDED_MAX newest items (docs/contract/feed.md, Bounded reads), the counters give the totals.
 */

export type PostRow = typeof posts.$inferSelect;

/** How many comments, likes, attendances and reports GET /post/{id} embeds. */
export const EMBEDDED_MAX = 50;

/** The post's columns as responses use them: the search document is never read back. */
const { search: _search, ...storedColumns } = getTableColumns(posts);
export const postColumns = storedColumns;
export type StoredPostRow = Omit<PostRow, 'search'>;

/**
 * Whether the post's group is verified (false without a group), read beside the post row. No
 * lookup for a post without a group: a search ranks every match before it keeps ten, and
 * PostgreSQL runs a subquery it costs as cheap (the groups table small or empty) for each of them
 * (1,000 matches: 2.5 → 0.6 ms, bench/ feed-reader).
 */
export const groupVerified = () =>
  sql<boolean>`case when ${qualified(posts.groupId)} is null then false else coalesce((select ${qualified(groups.verified)} from ${groups} where ${qualified(groups.id)} = ${qualified(posts.groupId)}), false) end`;

/** Who reads: a user id and whether they are a site ADMIN (placeholders or values). */
export interface Reader {
  id: SQL | Placeholder | string;
  admin: SQL | Placeholder | boolean;
}
export const readerPlaceholders: Reader = {
  id: sql.placeholder('readerId'),
  admin: sql.placeholder('readerAdmin'),
};
export const readerParams = (actor: Actor) => ({
  readerId: actor.id,
  readerAdmin: isSiteAdmin(actor),
});

/**
 * Hidden content (docs/contract/feed.md, Moderation) is seen by its author and by site ADMINs only:
 * the condition on a post or comment row for one reader.
 */
export const visibleTo = (reader: Reader, hiddenAt: AnyPgColumn, authorId: AnyPgColumn) =>
  sql`(${qualified(hiddenAt)} is null or ${qualified(authorId)} = ${reader.id}::uuid or ${reader.admin}::boolean)`;

/**
 * Whether the reader has a row in `table` for the post: a probe of the unique (post_id, user_id)
 * index. Measured over HTTP against the exact per-post sets that stood in for it (migrations
 * 0014 and 0016, dropped by 0018), which gained under 5% (docs/decisions.md, "Complexity that
 * must pay").
 */
const flag = (table: typeof postLikes | typeof postAttendances, reader: Reader) =>
  sql<boolean>`exists (select 1 from ${table} where ${qualified(table.postId)} = ${qualified(posts.id)} and ${qualified(table.userId)} = ${reader.id}::uuid)`;

/** The reader's flags per post. */
export const readerFlags = (reader: Reader) => ({
  likedByMe: flag(postLikes, reader),
  attendingByMe: flag(postAttendances, reader),
});

/** What a list or a read selects per post. */
export const summaryColumns = (reader: Reader) => ({
  ...postColumns,
  groupVerified: groupVerified(),
  ...readerFlags(reader),
  media: postMediaJson(),
  authorAvatarKey: avatarKeyOf(qualified(posts.authorId)),
});

import { newestFirst } from '../common/order';

export { newestFirst };

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | null) => (value ? value.toISOString() : null);

type SummaryRow = StoredPostRow & {
  groupVerified: boolean;
  likedByMe: boolean;
  attendingByMe: boolean;
  media: MediaItemRow[] | string;
  authorAvatarKey: string | null;
};

/** The row is the summary, with its timestamps as ISO text and `hidden` for its moderation state. */
export const toPostSummary = ({
  hiddenAt,
  keptVisible: _kept,
  authorAvatarKey,
  ...row
}: SummaryRow): PostSummary => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  eventDate: isoOrNull(row.eventDate),
  eventFinishDate: isoOrNull(row.eventFinishDate),
  hidden: hiddenAt !== null,
  media: parsed(row.media).map(toMediaItem),
  authorAvatarUrl: urlOrNull(authorAvatarKey),
});

/** An avatar's key as the database builds a user reference in JSON; the answer has its URL. */
type WithAvatarKey<T extends { avatarUrl: string | null }> = Omit<T, 'avatarUrl'> & {
  avatarKey?: string | null;
  avatarUrl?: string | null;
};
const withAvatarUrl = <T extends { avatarUrl: string | null }>({
  avatarKey,
  avatarUrl: _url,
  ...rest
}: WithAvatarKey<T>) => ({ ...rest, avatarUrl: urlOrNull(avatarKey) }) as T;

export const toComment = (
  c: Comment | (Omit<Comment, 'author'> & { author: WithAvatarKey<Comment['author']> }),
): Comment => ({
  ...c,
  author: withAvatarUrl(c.author),
  createdAt: iso(c.createdAt),
  updatedAt: c.updatedAt ? iso(c.updatedAt) : null,
});
export const toUserRecord = (r: UserRecord | WithAvatarKey<UserRecord>): UserRecord => ({
  ...withAvatarUrl(r),
  createdAt: iso(r.createdAt),
});

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
export const withNoInteractions = (
  row: StoredPostRow & {
    groupVerified: boolean;
    media: MediaItemRow[];
    authorAvatarKey: string | null;
  },
): Post => ({
  ...toPostSummary({ ...row, likedByMe: false, attendingByMe: false }),
  comments: [],
  likes: [],
  reports: [],
  attendances: [],
});

/** A comment as JSON, built by the database (embedded read and the comment list alike). */
export const commentJson = () =>
  sql`json_build_object('id', ${qualified(postComments.id)}, 'content', ${qualified(postComments.content)}, 'createdAt', ${qualified(postComments.createdAt)}, 'updatedAt', ${qualified(postComments.updatedAt)}, 'hidden', ${qualified(postComments.hiddenAt)} is not null, 'author', json_build_object('id', ${qualified(users.id)}, 'userName', ${qualified(users.nickname)}, 'avatarKey', ${avatarKeyOf(qualified(users.id))}))`;

export const userRecordJson = (table: typeof postLikes | typeof postAttendances) =>
  sql`json_build_object('id', ${qualified(table.id)}, 'userId', ${qualified(table.userId)}, 'userName', ${qualified(users.nickname)}, 'avatarKey', ${avatarKeyOf(qualified(users.id))}, 'createdAt', ${qualified(table.createdAt)})`;

/**
 * The EMBEDDED_MAX newest rows of a child table of the post, as a JSON array (`[]` when none):
 * the limit applies in an inner select served by the `(post_id, created_at desc, id desc)` index.
 */
function newestJson<T>(
  item: SQL,
  from: SQL,
  where: SQL,
  at: { createdAt: AnyPgColumn; id: AnyPgColumn },
) {
  return sql<T[] | string>`coalesce((select json_agg(e.item order by e.at desc, e.id desc) from (
    select ${item} as item, ${qualified(at.createdAt)} as at, ${qualified(at.id)} as id
    from ${from} where ${where}
    order by ${qualified(at.createdAt)} desc nulls last, ${qualified(at.id)} desc nulls last
    limit ${sql.raw(String(EMBEDDED_MAX))}) e), '[]'::json)`;
}

/** Drivers hand JSON back parsed, or as text (guarded). */
export const parsed = <T>(value: T[] | string): T[] =>
  typeof value === 'string' ? (JSON.parse(value) as T[]) : value;

const ofThisPost = (column: AnyPgColumn) => sql`${qualified(column)} = ${qualified(posts.id)}`;

function userRecords(table: typeof postLikes | typeof postAttendances) {
  return newestJson<UserRecord>(
    userRecordJson(table),
    sql`${table} join ${users} on ${qualified(users.id)} = ${qualified(table.userId)}`,
    ofThisPost(table.postId),
    table,
  );
}

/** The prepared statement behind GET /post/{id} and the update response. */
export function preparePostRead(db: Database) {
  const reader = readerPlaceholders;
  const statement = db
    .select({
      ...summaryColumns(reader),
      comments: newestJson<Comment>(
        commentJson(),
        sql`${postComments} join ${users} on ${qualified(users.id)} = ${qualified(postComments.authorId)}`,
        sql`${ofThisPost(postComments.postId)} and ${visibleTo(reader, postComments.hiddenAt, postComments.authorId)}`,
        postComments,
      ),
      likes: userRecords(postLikes),
      reports: newestJson<Report>(
        sql`json_build_object('id', ${qualified(postReports.id)}, 'reason', ${qualified(postReports.reason)}, 'createdAt', ${qualified(postReports.createdAt)}, 'userId', ${qualified(postReports.userId)})`,
        sql`${postReports}`,
        ofThisPost(postReports.postId),
        postReports,
      ),
      attendances: userRecords(postAttendances),
    })
    .from(posts)
    .where(
      sql`${qualified(posts.id)} = ${sql.placeholder('id')} and ${visibleTo(reader, posts.hiddenAt, posts.authorId)}`,
    )
    .prepare('feed_post_read');

  return async (id: string, actor: Actor): Promise<Post | undefined> => {
    const [row] = await statement.execute({ id, ...readerParams(actor) });
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
