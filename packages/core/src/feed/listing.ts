import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Actor } from '../common/actor';
import { listMeta, pageOffset } from '../common/pagination';
import type { Database } from '../db/client';
import { literalCount } from '../db/literal';
import { qualified } from '../db/qualified';
import { rowCounts } from '../db/row-counts';
import { groupFollows } from '../groups/table';
import {
  newestFirst,
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
 * GET /post (docs/contract/feed.md, Listing). Without filters: a prepared statement over the index
 * (created_at desc, id desc), the reader's flags as columns of the same statement (`readerFlags`
 * in records.ts says how; no query per post), and an exact total from row_counts minus the
 * hidden posts this reader may not see (few, from a partial index).
 * With filters: the same columns and an exact `count(*)` over the same condition.
 */

/** The filters a list may combine; each set of them present is one prepared statement pair. */
const FILTERS = ['type', 'groupId', 'authorId', 'q', 'following', 'upcoming'] as const;
type Filter = (typeof FILTERS)[number];

const searchQuery = sql`post_search_query(${sql.placeholder('q')})`;

/** The conditions on `posts` for a set of filters (visibility not included), values as placeholders. */
function conditionsOf(present: ReadonlySet<Filter>, reader: Reader): SQL[] {
  const conditions: SQL[] = [];
  if (present.has('type')) conditions.push(eq(posts.type, sql.placeholder('type')));
  if (present.has('groupId')) conditions.push(eq(posts.groupId, sql.placeholder('groupId')));
  if (present.has('authorId')) conditions.push(eq(posts.authorId, sql.placeholder('authorId')));
  if (present.has('q')) conditions.push(sql`${qualified(posts.search)} @@ ${searchQuery}`);
  if (present.has('following'))
    conditions.push(
      sql`${qualified(posts.groupId)} in (select ${qualified(groupFollows.groupId)} from ${groupFollows} where ${qualified(groupFollows.userId)} = ${reader.id}::uuid)`,
    );
  if (present.has('upcoming'))
    conditions.push(
      sql`${qualified(posts.type)} = 'EVENT' and ${qualified(posts.eventDate)} >= now()`,
    );
  return conditions;
}

/** upcoming: soonest first; q: most relevant first; otherwise newest first (ties: newest). */
function orderOf(present: ReadonlySet<Filter>): SQL {
  if (present.has('upcoming'))
    return sql`${qualified(posts.eventDate)} asc, ${qualified(posts.id)} asc`;
  const newest = newestFirst(posts.createdAt, posts.id);
  if (present.has('q'))
    return sql`ts_rank(${qualified(posts.search)}, ${searchQuery}) desc, ${newest}`;
  return newest;
}

/** Up to this OFFSET a page is read in one select; deeper, its ids are chosen first. */
const DIRECT_OFFSET_MAX = 100;

/**
 * A page's rows with their summary columns. PostgreSQL computes the per-post columns (group
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
  const unfilteredPage = (
    limit: number | Placeholder,
    offset: number | Placeholder,
    deep: boolean,
    name: string,
  ) =>
    pageOf(
      db,
      reader,
      visibleTo(reader, posts.hiddenAt, posts.authorId),
      newestFirst(posts.createdAt, posts.id),
      limit,
      offset,
      deep,
    ).prepare(name);
  const deepPage = unfilteredPage(
    sql.placeholder('limit'),
    sql.placeholder('offset'),
    true,
    'feed_posts_deep_page',
  );
  /**
   * The first pages, nearly every read of the feed: one statement per (limit, offset) with both
   * in its text, so that PostgreSQL keeps its generic plan (db/literal.ts). At most ~500 pairs
   * (limit ≤ 50, offset ≤ DIRECT_OFFSET_MAX); deeper pages share one statement.
   */
  const shallowPages = new Map<string, typeof deepPage>();
  const shallowPage = (limit: number, offset: number) => {
    const key = `${limit}:${offset}`;
    let page = shallowPages.get(key);
    if (!page) {
      page = unfilteredPage(literalCount(limit), literalCount(offset), false, `feed_posts_${key}`);
      shallowPages.set(key, page);
    }
    return page;
  };
  // row_counts is kept exact by a trigger (migration 0001); hidden posts are few.
  const unfilteredTotal = db
    .select({
      n: sql<number>`(${rowCounts.rowCount} - (select count(*) from ${posts} where ${qualified(posts.hiddenAt)} is not null and not ${visibleTo(reader, posts.hiddenAt, posts.authorId)}))::int`,
    })
    .from(rowCounts)
    .where(eq(rowCounts.tableName, 'posts'))
    .prepare('feed_posts_total');

  /**
   * With filters: a prepared page and count per set of filters present (at most 2⁶, twice: deep
   * or not), the values bound. Without preparing, postgres.js sent each one as an unnamed
   * statement, parsed again and described again on every request, after drizzle had built it.
   */
  const filteredStatements = new Map<
    string,
    { page: typeof deepPage; total: typeof unfilteredTotal }
  >();
  const filtered = (present: ReadonlySet<Filter>, deep: boolean) => {
    const key = `${[...present].join('+')}${deep ? ':deep' : ''}`;
    let statements = filteredStatements.get(key);
    if (!statements) {
      const where = and(
        visibleTo(reader, posts.hiddenAt, posts.authorId),
        ...conditionsOf(present, reader),
      );
      const name = `feed_posts_${key}`;
      statements = {
        page: pageOf(
          db,
          reader,
          where,
          orderOf(present),
          sql.placeholder('limit'),
          sql.placeholder('offset'),
          deep,
        ).prepare(name),
        total: db
          .select({ n: sql<number>`count(*)::int` })
          .from(posts)
          .where(where)
          .prepare(`${name}_total`),
      };
      filteredStatements.set(key, statements);
    }
    return statements;
  };

  return async function list(query: ListPostsQuery, actor: Actor): Promise<PostList> {
    const offset = pageOffset(query);
    const deep = offset > DIRECT_OFFSET_MAX;
    const present = new Set(FILTERS.filter((filter) => query[filter]));
    if (present.size === 0) {
      const params = { ...readerParams(actor), limit: query.limit, offset };
      const [rows, [count]] = await Promise.all([
        (deep ? deepPage : shallowPage(query.limit, offset)).execute(params),
        unfilteredTotal.execute(params),
      ]);
      return { data: rows.map(toPostSummary), meta: listMeta(query, count?.n ?? 0) };
    }
    const { page, total } = filtered(present, deep);
    const params = {
      ...readerParams(actor),
      limit: query.limit,
      offset,
      type: query.type,
      groupId: query.groupId,
      authorId: query.authorId,
      q: query.q,
    };
    const [rows, [count]] = await Promise.all([page.execute(params), total.execute(params)]);
    return { data: rows.map(toPostSummary), meta: listMeta(query, count?.n ?? 0) };
  };
}
