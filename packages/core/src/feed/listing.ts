import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Actor } from '../common/actor';
import { listMeta, pageOffset } from '../common/pagination';
import type { Database } from '../db/client';
import { qualified } from '../db/qualified';
import { rowCounts } from '../db/row-counts';
import { groupFollows } from '../groups/table';
import {
  newestFirst,
  readerOf,
  readerParams,
  readerPlaceholders,
  summaryColumns,
  toPostSummary,
  visibleTo,
  type Reader,
} from './records';
import type { ListPostsQuery, PostList } from './schemas';
import { posts } from './table';

/*
 * GET /post (extensions.md §B). Without filters: one prepared statement over the index
 * (created_at desc, id desc), the reader's flags as `exists` probes of the unique
 * (post_id, user_id) indexes (ten per page, no query per post), and an exact total from
 * row_counts minus the hidden posts this reader may not see (few, from a partial index).
 * With filters: the same columns and an exact `count(*)` over the same condition.
 */

const searchQuery = (q: string) => sql`post_search_query(${q})`;

/** The filters of the query, as conditions on `posts` (visibility not included). */
function filtersOf(query: ListPostsQuery, actor: Actor): SQL[] {
  const filters: SQL[] = [];
  if (query.type) filters.push(eq(posts.type, query.type));
  if (query.groupId) filters.push(eq(posts.groupId, query.groupId));
  if (query.authorId) filters.push(eq(posts.authorId, query.authorId));
  if (query.q) filters.push(sql`${qualified(posts.search)} @@ ${searchQuery(query.q)}`);
  if (query.following)
    filters.push(
      sql`${qualified(posts.groupId)} in (select ${qualified(groupFollows.groupId)} from ${groupFollows} where ${qualified(groupFollows.userId)} = ${actor.id}::uuid)`,
    );
  if (query.upcoming)
    filters.push(
      sql`${qualified(posts.type)} = 'EVENT' and ${qualified(posts.eventDate)} >= now()`,
    );
  return filters;
}

/** upcoming: soonest first; q: most relevant first; otherwise newest first (ties: newest). */
function orderOf(query: ListPostsQuery): SQL {
  if (query.upcoming) return sql`${qualified(posts.eventDate)} asc, ${qualified(posts.id)} asc`;
  const newest = newestFirst(posts.createdAt, posts.id);
  if (query.q)
    return sql`ts_rank(${qualified(posts.search)}, ${searchQuery(query.q)}) desc, ${newest}`;
  return newest;
}

/** Up to this OFFSET a page is read in one select; deeper, its ids are chosen first. */
const DIRECT_OFFSET_MAX = 100;

/**
 * A page's rows with their summary columns. PostgreSQL computes the per-post subqueries (group
 * badge, the reader's flags) for every row an OFFSET skips too: page 1000 ran 30,000 probes for
 * 10 posts. So a deep page chooses its ids first, in a subquery that reads the index only
 * (`posts_feed_order_idx` covers the visibility columns), and computes the columns for those
 * rows alone; a shallow one (the first pages, nearly every read) skips the join that costs.
 */
function pageOf(
  db: Database,
  reader: Reader,
  where: SQL | undefined,
  order: SQL,
  limit: number | Placeholder,
  offset: number | Placeholder,
  deep: boolean,
) {
  if (!deep)
    return db
      .select(summaryColumns(reader))
      .from(posts)
      .where(where)
      .orderBy(order)
      .limit(limit)
      .offset(offset);
  const page = db
    .select({ id: posts.id })
    .from(posts)
    .where(where)
    .orderBy(order)
    .limit(limit)
    .offset(offset)
    .as('page');
  return db
    .select(summaryColumns(reader))
    .from(posts)
    .innerJoin(page, eq(posts.id, page.id))
    .orderBy(order);
}

export function createPostListing(db: Database) {
  const reader = readerPlaceholders;
  const unfilteredPage = (deep: boolean) =>
    pageOf(
      db,
      reader,
      visibleTo(reader, posts.hiddenAt, posts.authorId),
      newestFirst(posts.createdAt, posts.id),
      sql.placeholder('limit'),
      sql.placeholder('offset'),
      deep,
    ).prepare(deep ? 'feed_posts_deep_page' : 'feed_posts_page');
  const unfilteredPages = { shallow: unfilteredPage(false), deep: unfilteredPage(true) };
  // row_counts is kept exact by a trigger (migration 0001); hidden posts are few.
  const unfilteredTotal = db
    .select({
      n: sql<number>`(${rowCounts.rowCount} - (select count(*) from ${posts} where ${qualified(posts.hiddenAt)} is not null and not ${visibleTo(reader, posts.hiddenAt, posts.authorId)}))::int`,
    })
    .from(rowCounts)
    .where(eq(rowCounts.tableName, 'posts'))
    .prepare('feed_posts_total');

  return async function list(query: ListPostsQuery, actor: Actor): Promise<PostList> {
    const filters = filtersOf(query, actor);
    const offset = pageOffset(query);
    const deep = offset > DIRECT_OFFSET_MAX;
    if (filters.length === 0) {
      const params = { ...readerParams(actor), limit: query.limit, offset };
      const [rows, [count]] = await Promise.all([
        unfilteredPages[deep ? 'deep' : 'shallow'].execute(params),
        unfilteredTotal.execute(params),
      ]);
      return { data: rows.map(toPostSummary), meta: listMeta(query, count?.n ?? 0) };
    }
    const caller = readerOf(actor);
    const where = and(visibleTo(caller, posts.hiddenAt, posts.authorId), ...filters);
    const [rows, [count]] = await Promise.all([
      pageOf(db, caller, where, orderOf(query), query.limit, offset, deep),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(posts)
        .where(where),
    ]);
    return { data: rows.map(toPostSummary), meta: listMeta(query, count?.n ?? 0) };
  };
}
