import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Actor } from '../common/actor';
import { cursorScope, microsOf, timestampOf, type Cursors } from '../db/cursor';
import { listMeta, pageOffset } from '../common/pagination';
import type { Database } from '../db/client';
import { qualified } from '../db/qualified';
import { notFound } from '../errors';
import { users } from '../users/table';
import {
  commentJson,
  parsed,
  readerParams,
  readerPlaceholders,
  toComment,
  toUserRecord,
  userRecordJson,
  visibleTo,
} from './records';
import type {
  Comment,
  CommentList,
  CommentPageQuery,
  PostPageQuery,
  UserRecord,
  UserRecordList,
} from './schemas';
import { postAttendances, postComments, postLikes, posts } from './table';

/*
 * The sub-lists of a post (docs/contract/feed.md, Bounded reads): GET /post/{id}/comment, /like and /attendance,
 * newest first, paged over the (post_id, created_at desc, id desc) indexes; comments also by
 * cursor (docs/contract/cursors.md). One
 * statement each: the page and the total come from the post row read in the same snapshot, and
 * a post the reader may not see (missing or hidden) is a 404. Totals are the post's counters;
 * comments add the hidden ones this reader still sees (their author's, or all for an ADMIN).
 */

const reader = readerPlaceholders;
const page = sql`limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}`;
const ofThisPost = (column: typeof postComments.postId) =>
  sql`${qualified(column)} = ${qualified(posts.id)}`;
const orderNewest = (table: { createdAt: AnyPgColumn; id: AnyPgColumn }) =>
  sql`${qualified(table.createdAt)} desc nulls last, ${qualified(table.id)} desc nulls last`;

/** The comments' start: by OFFSET (`page`), or after a cursor's (created_at, id). */
const commentsAfter = sql`and (${qualified(postComments.createdAt)}, ${qualified(postComments.id)}) < (${timestampOf(sql.placeholder('k0'))}, ${sql.placeholder('k1')}::uuid)`;
const commentKey = sql`concat_ws(' ', ${microsOf(postComments.createdAt)}, ${qualified(postComments.id)})`;

export function createThreadService(db: Database, cursors: Cursors) {
  /**
   * A page of comments, each with its sort key (`[comment, key]`), by OFFSET or after a key:
   * the range of the (post_id, created_at desc, id desc) index from the key on.
   */
  const commentPage = (after: SQL, offset: SQL, name: string) =>
    db
      .select({
        total: sql<number>`(${qualified(posts.commentsCount)} + (select count(*) from ${postComments} where ${ofThisPost(postComments.postId)} and ${qualified(postComments.hiddenAt)} is not null and ${visibleTo(reader, postComments.hiddenAt, postComments.authorId)}))::int`,
        items: sql<
          [Comment, string][] | string
        >`coalesce((select json_agg(json_build_array(e.item, e.key) order by e.n) from (
        select ${commentJson()} as item, ${commentKey} as key, row_number() over (order by ${orderNewest(postComments)}) as n
        from ${postComments} join ${users} on ${qualified(users.id)} = ${qualified(postComments.authorId)}
        where ${ofThisPost(postComments.postId)} and ${visibleTo(reader, postComments.hiddenAt, postComments.authorId)} ${after}
        order by ${orderNewest(postComments)} limit ${sql.placeholder('limit')} ${offset}) e), '[]'::json)`,
      })
      .from(posts)
      .where(
        sql`${qualified(posts.id)} = ${sql.placeholder('id')} and ${visibleTo(reader, posts.hiddenAt, posts.authorId)}`,
      )
      .prepare(name);
  const commentsByOffset = commentPage(
    sql``,
    sql`offset ${sql.placeholder('offset')}`,
    'feed_comment_page',
  );
  const commentsAfterKey = commentPage(commentsAfter, sql``, 'feed_comment_page_after');

  const recordPage = (table: typeof postLikes | typeof postAttendances, name: string) =>
    db
      .select({
        total: table === postLikes ? posts.likesCount : posts.attendancesCount,
        items: sql<UserRecord[] | string>`coalesce((select json_agg(e.item order by e.n) from (
          select ${userRecordJson(table)} as item, row_number() over (order by ${orderNewest(table)}) as n
          from ${table} join ${users} on ${qualified(users.id)} = ${qualified(table.userId)}
          where ${qualified(table.postId)} = ${qualified(posts.id)}
          order by ${orderNewest(table)} ${page}) e), '[]'::json)`,
      })
      .from(posts)
      .where(
        sql`${qualified(posts.id)} = ${sql.placeholder('id')} and ${visibleTo(reader, posts.hiddenAt, posts.authorId)}`,
      )
      .prepare(name);
  const likePage = recordPage(postLikes, 'feed_like_page');
  const attendancePage = recordPage(postAttendances, 'feed_attendance_page');

  const params = (query: PostPageQuery, actor: Actor) => ({
    id: query.id,
    limit: query.limit,
    offset: pageOffset(query),
    ...readerParams(actor),
  });

  async function records(
    statement: typeof likePage,
    query: PostPageQuery,
    actor: Actor,
  ): Promise<UserRecordList> {
    const [row] = await statement.execute(params(query, actor));
    if (!row) throw notFound('Post not found');
    return { data: parsed(row.items).map(toUserRecord), meta: listMeta(query, row.total) };
  }

  return {
    async listComments(query: CommentPageQuery, actor: Actor): Promise<CommentList> {
      const scope = cursorScope('comments', actor.id, query.id);
      const position = cursors.positionOf(scope, query);
      const [row] = await (position.after ? commentsAfterKey : commentsByOffset).execute({
        id: query.id,
        limit: query.limit + 1,
        offset: position.offset,
        k0: position.after?.[0],
        k1: position.after?.[1],
        ...readerParams(actor),
      });
      if (!row) throw notFound('Post not found');
      return cursors.page(
        scope,
        position,
        query.limit,
        parsed(row.items),
        row.total,
        ([, key]) => key.split(' '),
        ([comment]) => toComment(comment),
      );
    },
    listLikes: (query: PostPageQuery, actor: Actor) => records(likePage, query, actor),
    listAttendances: (query: PostPageQuery, actor: Actor) => records(attendancePage, query, actor),
  };
}
