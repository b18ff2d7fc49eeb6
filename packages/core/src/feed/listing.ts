import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Actor } from '../common/actor';
import { cursorScope, microsOf, timestampOf, type Cursors } from '../db/cursor';
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
 * GET /post (docs/contract/feed.md, Listing). One prepared page statement per set of filters present and per way of starting
 * (by OFFSET for `page`, after a sort key for `cursor`), the values bound; each page also reads
 * its rows' sort keys, so every answer's `nextCursor` continues after its last post. A cursor's
 * page is a range scan of the index that matches the list's order (newest first:
 * posts_feed_order_idx, or the groupId/authorId/type index; upcoming: posts_event_date_idx),
 * from the key on: the 1,000th page costs what the first does. Totals: without filters
 * row_counts minus the hidden posts this reader may not see (few, from a partial index); with
 * filters an exact `count(*)` over the same condition.
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

/** The params `k0`, `k1`, `k2`: the sort key a cursor continues after. */
const k = [0, 1, 2].map((i) => sql.placeholder(`k${i}`));

/**
 * A list's order: ORDER BY, the sort key of a row as text (space-separated), and the condition
 * "after key k" on the same columns (a row comparison the order's index serves). Ties by id.
 * upcoming: soonest first; q: most relevant first, then newest; otherwise newest first.
 */
function orderOf(present: ReadonlySet<Filter>): {
  by: SQL;
  key: SQL<string>;
  after: SQL;
  /** No index serves the order: PostgreSQL sorts every matching row. */
  sortsEveryMatch?: boolean;
} {
  const [createdAt, id, eventDate] = [posts.createdAt, posts.id, posts.eventDate].map(qualified);
  if (present.has('upcoming'))
    return {
      by: sql`${eventDate} asc, ${id} asc`,
      key: sql<string>`concat_ws(' ', ${microsOf(posts.eventDate)}, ${id})`,
      after: sql`(${eventDate}, ${id}) > (${timestampOf(k[0]!)}, ${k[1]}::uuid)`,
    };
  const newest = newestFirst(posts.createdAt, posts.id);
  if (present.has('q')) {
    const rank = sql`ts_rank(${qualified(posts.search)}, ${searchQuery})`;
    return {
      by: sql`${rank} desc, ${newest}`,
      key: sql<string>`concat_ws(' ', ${rank}::text, ${microsOf(posts.createdAt)}, ${id})`,
      after: sql`(${rank}, ${createdAt}, ${id}) < (${k[0]}::real, ${timestampOf(k[1]!)}, ${k[2]}::uuid)`,
      sortsEveryMatch: true,
    };
  }
  return {
    by: newest,
    key: sql<string>`concat_ws(' ', ${microsOf(posts.createdAt)}, ${id})`,
    after: sql`(${createdAt}, ${id}) < (${timestampOf(k[0]!)}, ${k[1]}::uuid)`,
  };
}
type Order = ReturnType<typeof orderOf>;

/** How a page starts: by OFFSET (shallow or deep), or after a cursor's sort key. */
type Start = 'shallow' | 'deep' | 'after';

/** Up to this OFFSET a page is read in one select; deeper, its ids are chosen first. */
const DIRECT_OFFSET_MAX = 100;

/**
 * A page's rows with their summary columns and sort key. PostgreSQL computes the per-post
 * columns (group badge, the reader's flags, the sort key as text) for every row it reads before
 * the LIMIT applies: for every row an OFFSET skips (page 1000 ran 30,000 probes for 10 posts),
 * and for every match of an order no index serves (a search sorts all its matches by rank). Such
 * a page chooses its ids first, in a subquery that computes the order alone, and the columns for
 * those rows only. A page in an index's order, after a cursor or at a shallow offset, reads its
 * rows directly.
 */
function pageOf(
  db: Database,
  reader: Reader,
  where: SQL | undefined,
  order: Order,
  start: Start,
  limit: number | Placeholder,
  offset: number | Placeholder,
) {
  const columns = { ...summaryColumns(reader), cursorKey: order.key };
  const matching = start === 'after' ? and(where, order.after) : where;
  const skipped = start === 'after' ? 0 : offset;
  if (start !== 'deep' && !order.sortsEveryMatch)
    return db
      .select(columns)
      .from(posts)
      .where(matching)
      .orderBy(order.by)
      .limit(limit)
      .offset(skipped);
  const page = db
    .select({ id: posts.id })
    .from(posts)
    .where(matching)
    .orderBy(order.by)
    .limit(limit)
    .offset(skipped)
    .as('page');
  return db.select(columns).from(posts).innerJoin(page, eq(posts.id, page.id)).orderBy(order.by);
}

export function createPostListing(db: Database, cursors: Cursors) {
  const reader = readerPlaceholders;
  const visible = visibleTo(reader, posts.hiddenAt, posts.authorId);
  const newest = orderOf(new Set());
  const unfilteredPage = (
    start: Start,
    limit: number | Placeholder,
    offset: number | Placeholder,
    name: string,
  ) => pageOf(db, reader, visible, newest, start, limit, offset).prepare(name);
  const deepPage = unfilteredPage(
    'deep',
    sql.placeholder('limit'),
    sql.placeholder('offset'),
    'feed_posts_deep_page',
  );
  /**
   * The first pages by number and every page by cursor, nearly every read of the feed: one
   * statement per (limit, offset) or per limit, with the numbers in its text, so that PostgreSQL
   * keeps its generic plan (db/literal.ts). At most ~550 of them (limit ≤ 50, offset ≤
   * DIRECT_OFFSET_MAX); deeper pages by number share one statement.
   */
  const literalPages = new Map<string, typeof deepPage>();
  const literalPage = (start: 'shallow' | 'after', limit: number, offset: number) => {
    const key = start === 'after' ? `after_${limit}` : `${limit}:${offset}`;
    let page = literalPages.get(key);
    if (!page) {
      page = unfilteredPage(start, literalCount(limit), literalCount(offset), `feed_posts_${key}`);
      literalPages.set(key, page);
    }
    return page;
  };
  // row_counts is kept exact by a trigger (migration 0001); hidden posts are few.
  const unfilteredTotal = db
    .select({
      n: sql<number>`(${rowCounts.rowCount} - (select count(*) from ${posts} where ${qualified(posts.hiddenAt)} is not null and not ${visible}))::int`,
    })
    .from(rowCounts)
    .where(eq(rowCounts.tableName, 'posts'))
    .prepare('feed_posts_total');

  /** With filters: a prepared page per set of filters present and start, and a count per set. */
  const filteredPages = new Map<string, typeof deepPage>();
  const filteredTotals = new Map<string, typeof unfilteredTotal>();
  const whereOf = (present: ReadonlySet<Filter>) => and(visible, ...conditionsOf(present, reader));
  const filtered = (present: ReadonlySet<Filter>, start: Start) => {
    const filters = [...present].join('+');
    let page = filteredPages.get(`${filters}:${start}`);
    if (!page) {
      page = pageOf(
        db,
        reader,
        whereOf(present),
        orderOf(present),
        start,
        sql.placeholder('limit'),
        sql.placeholder('offset'),
      ).prepare(`feed_posts_${filters}_${start}`);
      filteredPages.set(`${filters}:${start}`, page);
    }
    let total = filteredTotals.get(filters);
    if (!total) {
      total = db
        .select({ n: sql<number>`count(*)::int` })
        .from(posts)
        .where(whereOf(present))
        .prepare(`feed_posts_${filters}_total`);
      filteredTotals.set(filters, total);
    }
    return { page, total };
  };

  return async function list(query: ListPostsQuery, actor: Actor): Promise<PostList> {
    const present = new Set(FILTERS.filter((filter) => query[filter]));
    const scope = cursorScope('posts', actor.id, ...FILTERS.map((f) => query[f] ?? null));
    const position = cursors.positionOf(scope, query);
    const start: Start = position.after
      ? 'after'
      : position.offset > DIRECT_OFFSET_MAX
        ? 'deep'
        : 'shallow';
    const params = {
      ...readerParams(actor),
      limit: query.limit + 1,
      offset: position.offset,
      k0: position.after?.[0],
      k1: position.after?.[1],
      k2: position.after?.[2],
      type: query.type,
      groupId: query.groupId,
      authorId: query.authorId,
      q: query.q,
    };
    const { page, total } =
      present.size > 0
        ? filtered(present, start)
        : {
            page: start === 'deep' ? deepPage : literalPage(start, params.limit, params.offset),
            total: unfilteredTotal,
          };
    const [rows, [count]] = await Promise.all([page.execute(params), total.execute(params)]);
    return cursors.page(
      scope,
      position,
      query.limit,
      rows,
      count?.n ?? 0,
      (row) => row.cursorKey.split(' '),
      ({ cursorKey: _key, ...row }) => toPostSummary(row),
    );
  };
}
