/**
 * Issue 13's figures (docs/contract/feed.md, Listing), on the large database (1,000,000 posts at full scale):
 * - the list with the reader's flags against the same list with two constant columns in their
 *   place (what two more values per row cost with nothing computed; goal ≥ 0.95): the statements
 *   GET /post runs (page with visibility + likedByMe/attendingByMe, and the exact total less
 *   hidden posts), executed by PostgreSQL in rotating rounds of the same run. Measured at the
 *   statement, where the flags cost is all there is (over HTTP the same cost is a smaller share
 *   of a request, so the HTTP ratio can only be closer to 1). In the same rounds, for the record:
 *   the list without the two columns, and the list before issue 13 (no moderation either);
 * - GET /post?q= (a term found in 1 post of 1,000) against GET /post page 1, over HTTP;
 * - GET /post/{id} of a post with 100,000 likes against one with 10, over HTTP (bounded read).
 * Answers are checked: totals, lengths and the first item.
 */
import postgres from 'postgres';
import { compare, parse, type Load, type RunResult } from './measure';
import { atLeast, atMost, type Ratio, type Timing } from './ratios';
import { log, type Service } from './support';

type Sql = postgres.Sql;

const SEARCH_EVERY = 1000;
const SEARCH_TERM = 'campeonato';
const LIKED_POST = 'Post 7000';
const MANY_LIKES = 100_000;
const EPOCH = '2030-01-01 00:00:00+00';

const columns = `p.id, p.title, p.content, p.type, p.author, p.author_id, p."group", p.group_id,
  p.event_date, p.event_finish_date, p.location, p.likes_count, p.comments_count,
  p.attendances_count, p.hidden_at, p.kept_visible, p.created_at, p.updated_at,
  case when p.group_id is null then false
    else coalesce((select g.verified from groups g where g.id = p.group_id), false) end as group_verified`;
/**
 * Page 1 of 10 (11 rows: the extra one says whether a next page exists), both numbers in the
 * text as the service writes them (core db/literal.ts).
 */
const order = 'order by p.created_at desc nulls last, p.id desc nulls last limit 11 offset 0';

/**
 * Who may see a post (hidden content, docs/contract/feed.md, Moderation) and the total less hidden
 * posts.
 */
const visible = 'where (p.hidden_at is null or p.author_id = $1::uuid or $2::boolean)';
const visibleTotal = `select (row_count - (select count(*) from posts p where p.hidden_at is not null
      and not (p.hidden_at is null or p.author_id = $1::uuid or $2::boolean)))::int as n
    from row_counts where table_name = 'posts'`;

/**
 * GET /post's statements (feed/listing.ts): visibility, the reader's flags (a probe of the
 * unique (post_id, user_id) indexes, feed/records.ts), the total less hidden posts.
 */
const withFlags = {
  page: `select ${columns},
      exists (select 1 from post_likes l where l.post_id = p.id and l.user_id = $1::uuid) as liked_by_me,
      exists (select 1 from post_attendances a where a.post_id = p.id and a.user_id = $1::uuid) as attending_by_me
    from posts p ${visible} ${order}`,
  total: visibleTotal,
};
/** The same list without the reader's flags, for the record. */
const withoutFlags = {
  page: `select ${columns} from posts p ${visible} ${order}`,
  total: visibleTotal,
};
/**
 * The same list with two constant columns in place of the flags: what two more values per row
 * cost (the database's output, the driver's parsing) with nothing computed. Reported beside the
 * target: no way of computing the flags can measure above it.
 */
const constantFlags = {
  page: `select ${columns}, false as liked_by_me, false as attending_by_me
    from posts p ${visible} ${order}`,
  total: visibleTotal,
};
/**
 * And the list before issue 13, without moderation either (the page and the trigger-kept
 * total): what the flags and the visibility rules cost together, reported beside the target.
 */
const beforeIssue = {
  page: `select ${columns} from posts p ${order}`,
  total: `select row_count from row_counts where table_name = 'posts'`,
};

/** The search term in one post of SEARCH_EVERY, a post with MANY_LIKES likes (idempotent). */
async function seedFeedReader(sql: Sql, passwordHash: string, readerId: string): Promise<void> {
  const started = Date.now();
  await sql`update posts set content = 'Campeonato de futsal: inscrições abertas (' || title || ')'
    where case when title ~ '^Post [0-9]+$' then substr(title, 6)::int % ${SEARCH_EVERY} = 0 else false end
      and content not like 'Campeonato%'`;
  const [liked] = await sql<{ id: string; n: number }[]>`
    select id, likes_count as n from posts where title = ${LIKED_POST}`;
  if (liked && liked.n !== MANY_LIKES) {
    await sql.begin(async (tx) => {
      await tx.unsafe('alter table users disable trigger users_row_count');
      const added = await tx`
        insert into users (nome, nickname, email, password_hash, created_at, updated_at)
        select 'Liker ' || g, 'liker_' || g, 'liker_' || g || '@campus.test', ${passwordHash},
               ${EPOCH}::timestamptz, ${EPOCH}::timestamptz
        from generate_series(1, ${MANY_LIKES}::int) g
        on conflict do nothing`;
      await tx`update row_counts set row_count = row_count + ${added.count} where table_name = 'users'`;
      await tx.unsafe('alter table users enable trigger users_row_count');
      await tx`
        insert into post_likes (post_id, user_id, created_at)
        select ${liked.id}, u.id, ${EPOCH}::timestamptz + (substr(u.nickname, 7)::int) * interval '1 second'
        from users u where u.nickname like 'liker\\_%'
        on conflict do nothing`;
      await tx`update posts set likes_count = (select count(*) from post_likes where post_id = ${liked.id})
        where id = ${liked.id}`;
    });
  }
  await likeFirstPage(sql, readerId);
  await sql`vacuum analyze posts`;
  await sql`vacuum analyze post_likes`;
  log(`feed-reader: seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Every post of the first page liked (three likes each, the reader's among them on the 2nd and
 * 5th): the flags are measured on posts whose sets hold ids to compare, two of them the reader's.
 * Idempotent.
 */
async function likeFirstPage(sql: Sql, readerId: string): Promise<void> {
  await sql.begin(async (tx) => {
    const top = await tx<{ id: string }[]>`
      select id from posts order by created_at desc, id desc limit 10`;
    const ids = top.map((p) => p.id);
    await tx`
      insert into post_likes (post_id, user_id)
      select p, u.id from unnest(${ids}::uuid[]) p
        cross join (select id from users where nickname in ('liker_1', 'liker_2')) u
      on conflict do nothing`;
    await tx`
      insert into post_likes (post_id, user_id)
      values (${ids[1]!}, ${readerId}), (${ids[4]!}, ${readerId})
      on conflict do nothing`;
    await tx`update posts set likes_count = (select count(*) from post_likes l where l.post_id = posts.id)
      where id = any(${ids}::uuid[])`;
  });
}

/** Prepared, even without parameters: `simple` is an option postgres.js reads but does not type. */
const PREPARED: postgres.UnsafeQueryOptions = Object.assign({ prepare: true }, { simple: false });

/**
 * `workers` sessions running one statement pair (page + total, like the service) for `seconds`.
 * Both prepared, as the service's are: postgres.js would send a statement without parameters
 * (the list without flags) as a simple query, parsed and planned on every execution.
 */
async function statementRate(
  sql: Sql,
  statements: { page: string; total: string },
  params: { page: readonly unknown[]; total: readonly unknown[] },
  seconds: number,
  workers: number,
): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < end) {
        const [rows] = await Promise.all([
          sql.unsafe(statements.page, params.page as never[], PREPARED),
          sql.unsafe(statements.total, params.total as never[], PREPARED),
        ]);
        if (rows.length !== 11) throw new Error('the list statement did not answer 11 rows');
        done++;
      }
    }),
  );
  return done / seconds;
}

export async function feedReader(options: {
  server: Service;
  url: string;
  auth: string;
  readerId: string;
  posts: number;
  readPostId: string;
  passwordHash: string;
  timing: Timing;
}): Promise<{ results: RunResult[]; ratios: Ratio[] }> {
  const sql = postgres(options.url, { max: 8, onnotice: () => {} });
  // Rounds of at least 3 s: on a loaded machine a shorter one may complete no request at all.
  const timing = {
    ...options.timing,
    seconds: Math.max(3, options.timing.seconds),
    rounds: Math.max(2, options.timing.rounds),
  };
  try {
    await seedFeedReader(sql, options.passwordHash, options.readerId);
    const [liked] = await sql<{ id: string }[]>`select id from posts where title = ${LIKED_POST}`;

    // The statements, in rounds that rotate their order, 4 sessions each.
    const reader = { page: [options.readerId, false], total: [options.readerId, false] };
    const statements = [
      { name: 'with', set: withFlags, params: reader },
      { name: 'without', set: withoutFlags, params: reader },
      { name: 'constant', set: constantFlags, params: reader },
      { name: 'before', set: beforeIssue, params: { page: [], total: [] } },
    ] as const;
    const rates = { with: 0, without: 0, constant: 0, before: 0 };
    const { rounds, seconds } = timing;
    for (const { set, params } of statements) await statementRate(sql, set, params, 1, 4);
    for (let round = 0; round < rounds; round++) {
      const first = round % statements.length;
      const rotated = [...statements.slice(first), ...statements.slice(0, first)];
      for (const { name, set, params } of rotated)
        rates[name] += await statementRate(sql, set, params, seconds, 4);
    }
    const [withRate, withoutRate, constantRate, beforeRate] = [
      rates.with / rounds,
      rates.without / rounds,
      rates.constant / rounds,
      rates.before / rounds,
    ];
    log(
      `GET /post statements: with flags ${withRate.toFixed(0)}/s, without them ${withoutRate.toFixed(0)}/s, two constant columns ${constantRate.toFixed(0)}/s (${(constantRate / withoutRate).toFixed(2)} of without), before issue 13 ${beforeRate.toFixed(0)}/s (with flags / before: ${(withRate / beforeRate).toFixed(2)})`,
    );

    const headers = { authorization: options.auth };
    // The seeded posts, and any an earlier scenario created.
    const [count] = await sql<
      { n: string }[]
    >`select row_count as n from row_counts where table_name = 'posts'`;
    const total = Number(count!.n);
    const matches = Math.floor(options.posts / SEARCH_EVERY);
    const page1: Load = {
      name: `GET /post page 1 with the reader's flags @ ${total.toLocaleString('en')} posts`,
      service: options.server,
      path: '/post',
      headers,
      check: (body) => {
        const p = parse<{ data: { likedByMe: boolean }[]; meta: { totalCount: number } }>(body);
        return (
          p?.meta.totalCount === total &&
          p.data.length === 10 &&
          p.data[0]?.likedByMe === false &&
          p.data[1]?.likedByMe === true
        );
      },
    };
    const search: Load = {
      name: `GET /post?q=${SEARCH_TERM} (${matches} matches)`,
      service: options.server,
      path: `/post?q=${SEARCH_TERM}`,
      headers,
      check: (body) => {
        const p = parse<{ data: { content: string }[]; meta: { totalCount: number } }>(body);
        return p?.meta.totalCount === matches && p.data.length === 10;
      },
    };
    const readCheck = (likes: number) => (body: string) => {
      const p = parse<{ likesCount: number; likes: unknown[] }>(body);
      return p?.likesCount === likes && p.likes.length === Math.min(likes, 50);
    };
    const fewLikes: Load = {
      name: 'GET /post/{id} with 10 likes',
      service: options.server,
      path: `/post/${options.readPostId}`,
      headers,
      check: readCheck(10),
    };
    const manyLikes: Load = {
      name: `GET /post/{id} with ${MANY_LIKES.toLocaleString('en')} likes`,
      service: options.server,
      path: `/post/${liked!.id}`,
      headers,
      check: readCheck(MANY_LIKES),
    };
    const results = await compare([page1, search, fewLikes, manyLikes], timing);
    const [p, s, few, many] = results as [RunResult, RunResult, RunResult, RunResult];
    const statementResult = (name: string, rate: number): RunResult => ({
      name,
      requestsPerSec: rate,
      p50: 0,
      p99: 0,
      requests: Math.round(rate * rounds * seconds),
      errors: 0,
      wrongAnswers: 0,
      rssMb: 0,
      seconds: rounds * seconds,
    });
    return {
      results: [
        statementResult('GET /post statements (page + total), with the flags', withRate),
        statementResult('GET /post statements (page + total), without the flags', withoutRate),
        statementResult(
          'GET /post statements (page + total), two constant columns for the flags',
          constantRate,
        ),
        statementResult(
          'GET /post statements (page + total), before issue 13 (no flags, no moderation)',
          beforeRate,
        ),
        ...results,
      ],
      ratios: [
        atLeast(
          `GET /post with the reader's flags / with two constant columns in their place (statements, ${total.toLocaleString('en')} posts)`,
          withRate / constantRate,
          0.95,
          `${withRate.toFixed(0)} / ${constantRate.toFixed(0)} per s; without the two columns: ${withoutRate.toFixed(0)} per s`,
        ),
        atLeast(
          `GET /post?q= / page 1 (${total.toLocaleString('en')} posts), req/s`,
          s.requestsPerSec / p.requestsPerSec,
          0.3,
          `${s.requestsPerSec.toFixed(0)} / ${p.requestsPerSec.toFixed(0)}`,
        ),
        atMost(
          `GET /post/{id}: ${MANY_LIKES.toLocaleString('en')} likes / 10 likes, time per request`,
          few.requestsPerSec / many.requestsPerSec,
          2,
          `${many.requestsPerSec.toFixed(0)} vs ${few.requestsPerSec.toFixed(0)} req/s; p50 ${many.p50} vs ${few.p50} ms`,
        ),
      ],
    };
  } finally {
    await sql.end();
  }
}
