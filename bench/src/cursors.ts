/**
 * Cursors (docs/contract/cursors.md) on the large database (1,000,000 posts at full scale): page
 * 1000 reached by cursor against page 1, in the same rounds, over HTTP, for
 * - the feed (GET /post),
 * - a filtered feed (GET /post?groupId=…, one post in GROUP_EVERY belongs to the group),
 * - the comments of a post with MANY_COMMENTS comments (GET /post/{id}/comment).
 * The cursor of page 1000 is page 999's `nextCursor` (a page answer's cursor continues after it).
 * Every answer is checked: its length, its page number and its first item.
 */
import postgres from 'postgres';
import { compare, parse, type Load, type RunResult } from './measure';
import { atLeast, type Ratio, type Timing } from './ratios';
import { log, type Service } from './support';

type Sql = postgres.Sql;

const GROUP_NAME = 'Bench Cursors Group';
const GROUP_EVERY = 50;
const COMMENTED_POST = 'Post 9000';
const MANY_COMMENTS = 100_000;
const LIMIT = 10;
const DEEP = 1000;
const EPOCH = '2030-01-01 00:00:00+00';

/** The group and its posts, the post with MANY_COMMENTS comments (idempotent). */
async function seedCursors(sql: Sql): Promise<{ groupId: string; postId: string }> {
  const started = Date.now();
  await sql`insert into groups (name, description, group_type) values (${GROUP_NAME}, 'Bench', 'OTHER')
    on conflict do nothing`;
  const [group] = await sql<{ id: string }[]>`select id from groups where name = ${GROUP_NAME}`;
  await sql`update posts set group_id = ${group!.id}, "group" = ${GROUP_NAME}
    where title ~ '^Post [0-9]+$' and substr(title, 6)::int % ${GROUP_EVERY} = 0 and group_id is null`;
  const [post] = await sql<{ id: string; n: number }[]>`
    select id, comments_count as n from posts where title = ${COMMENTED_POST}`;
  if (post!.n !== MANY_COMMENTS) {
    await sql.begin(async (tx) => {
      await tx`delete from post_comments where post_id = ${post!.id}`;
      // Comment g was written g seconds after EPOCH, by the seeded users in turn.
      await tx`insert into post_comments (post_id, author_id, content, created_at)
        select ${post!.id}, a.id, 'Bench comment ' || g, ${EPOCH}::timestamptz + g * interval '1 second'
        from generate_series(1, ${MANY_COMMENTS}::int) g
        join bench_authors a on a.n = g % (select count(*) from bench_authors)`;
      await tx`update posts set comments_count = ${MANY_COMMENTS} where id = ${post!.id}`;
    });
  }
  await sql`vacuum analyze posts`;
  await sql`vacuum analyze post_comments`;
  log(`cursors: seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { groupId: group!.id, postId: post!.id };
}

type Page = {
  data: { title?: string; content?: string }[];
  meta: { page: number; nextCursor: string | null };
};

/** Page 1 and page `deep` by cursor of one list, with the check of each. */
async function pair(
  server: Service,
  headers: Record<string, string>,
  name: string,
  path: string,
  deep: number,
  firstOf: (page: number) => string,
): Promise<[Load, Load]> {
  const sep = path.includes('?') ? '&' : '?';
  const before = await fetch(`${server.url}${path}${sep}limit=${LIMIT}&page=${deep - 1}`, {
    headers,
  });
  const cursor = ((await before.json()) as Page).meta.nextCursor;
  if (!cursor) throw new Error(`${name}: page ${deep - 1} has no nextCursor`);
  const check = (page: number) => (body: string) => {
    const p = parse<Page>(body);
    const first = p?.data[0];
    return (
      p?.meta.page === page &&
      p.data.length === LIMIT &&
      (first?.title ?? first?.content) === firstOf(page)
    );
  };
  return [
    {
      name: `${name} page 1`,
      service: server,
      path: `${path}${sep}limit=${LIMIT}`,
      headers,
      check: check(1),
    },
    {
      name: `${name} page ${deep} by cursor`,
      service: server,
      path: `${path}${sep}limit=${LIMIT}&cursor=${encodeURIComponent(cursor)}`,
      headers,
      check: check(deep),
    },
  ];
}

export async function listCursors(options: {
  server: Service;
  url: string;
  auth: string;
  posts: number;
  timing: Timing;
}): Promise<{ results: RunResult[]; ratios: Ratio[] }> {
  const sql = postgres(options.url, { max: 2, onnotice: () => {} });
  try {
    const { groupId, postId } = await seedCursors(sql);
    const headers = { authorization: options.auth };
    const grouped = Math.floor(options.posts / GROUP_EVERY);
    // The quick run's seeds hold fewer than 1,000 pages of the group.
    const groupDeep = Math.min(DEEP, Math.floor(grouped / LIMIT) - 1);
    const lists = [
      {
        what: 'GET /post',
        path: '/post',
        deep: DEEP,
        firstOf: (p: number) => `Post ${(p - 1) * LIMIT + 1}`,
      },
      {
        what: `GET /post?groupId= (1 post in ${GROUP_EVERY})`,
        path: `/post?groupId=${groupId}`,
        deep: groupDeep,
        firstOf: (p: number) => `Post ${((p - 1) * LIMIT + 1) * GROUP_EVERY}`,
      },
      {
        what: `GET /post/{id}/comment (${MANY_COMMENTS.toLocaleString('en')} comments)`,
        path: `/post/${postId}/comment`,
        deep: DEEP,
        firstOf: (p: number) => `Bench comment ${MANY_COMMENTS - (p - 1) * LIMIT}`,
      },
    ];
    const loads: Load[] = [];
    for (const list of lists)
      loads.push(
        ...(await pair(options.server, headers, list.what, list.path, list.deep, list.firstOf)),
      );
    const results = await compare(loads, options.timing);
    // Each list's two loads, page 1 then page `deep`, side by side in `results`.
    const ratios = lists.map(({ what, deep }, i) => {
      const [first, deepest] = [results[2 * i]!, results[2 * i + 1]!];
      return atLeast(
        `${what} page ${deep} by cursor / page 1 (${options.posts.toLocaleString('en')} posts), req/s`,
        deepest.requestsPerSec / first.requestsPerSec,
        0.9,
        `${deepest.requestsPerSec.toFixed(0)} / ${first.requestsPerSec.toFixed(0)}`,
      );
    });
    return { results, ratios };
  } finally {
    await sql.end();
  }
}
