/**
 * Issue 12's scale rule: `GET /group` and `GET /group/:id/members` stay flat from 1,000 to
 * 100,000 groups / members. Two databases seeded alike at the two sizes, one server on each, page 1
 * of both lists measured in the same rounds; the ratio large/small of req/s is the result.
 * Group g is named "Grupo g" zero-padded, so page 1 of the name order is groups 1…10; its first
 * group has every seeded user as a member (the first an OWNER), joined in user order.
 */
import postgres from 'postgres';
import { seedUsers, type SeededUser } from './seed';
import { databaseUrl, freshDatabase, log, startServer, stopProcess } from './support';
import { compare, parse, type RunResult } from './measure';
import type { Ratio, Timing } from './ratios';

type Sql = postgres.Sql;

const EPOCH = '2030-01-01 00:00:00+00';
const LIMIT = 10;
const pad = (g: number) => String(g).padStart(6, '0');

/** `count` groups and, in the first, `members` members; counters and row_counts set to match. */
async function seedGroups(sql: Sql, count: number, members: number): Promise<string> {
  const started = Date.now();
  await sql.begin(async (tx) => {
    await tx.unsafe('alter table groups disable trigger groups_row_count');
    await tx.unsafe('alter table group_members disable trigger group_members_counter');
    await tx`
      insert into groups (name, group_type, sports, created_at, updated_at)
      select 'Grupo ' || lpad(g::text, 6, '0'),
             (array['ATHLETIC','AMATEUR','ACADEMIC','OTHER'])[1 + g % 4]::group_type,
             array['FUTSAL'], ${EPOCH}::timestamptz, ${EPOCH}::timestamptz
      from generate_series(1, ${count}::int) g`;
    await tx`update row_counts set row_count = row_count + ${count} where table_name = 'groups'`;
    await tx`
      insert into group_members (group_id, user_id, role, joined_at)
      select (select id from groups where name = ${`Grupo ${pad(1)}`}), a.id,
             (case when a.n = 0 then 'OWNER' else 'MEMBER' end)::group_role,
             ${EPOCH}::timestamptz + a.n * interval '1 second'
      from bench_authors a where a.n < ${members}`;
    await tx`update groups set members_count = ${members} where name = ${`Grupo ${pad(1)}`}`;
    await tx.unsafe('alter table groups enable trigger groups_row_count');
    await tx.unsafe('alter table group_members enable trigger group_members_counter');
  });
  await sql`vacuum analyze groups`;
  await sql`vacuum analyze group_members`;
  const [first] = await sql<{ id: string; n: number }[]>`
    select id, (select count(*)::int from group_members m where m.group_id = g.id) as n
    from groups g where name = ${`Grupo ${pad(1)}`}`;
  if (first!.n !== members) throw new Error(`group 1 has ${first!.n} members, not ${members}`);
  log(`groups: ${count} and ${members} members in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return first!.id;
}

interface Size {
  name: string;
  url: string;
  groups: number;
  groupId: string;
  owner: SeededUser;
}

async function seedSize(
  name: string,
  size: number,
  passwordHash: string,
  migrate: (url: string) => void,
): Promise<Size> {
  await freshDatabase(name);
  const url = databaseUrl(name);
  migrate(url);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const users = await seedUsers(sql, size, passwordHash);
    const groupId = await seedGroups(sql, size, size);
    return { name, url, groups: size, groupId, owner: users[0]! };
  } finally {
    await sql.end();
  }
}

/** Page 1 of the group list: the exact total and groups 1…10 in order. */
const groupsCheck = (total: number) => (body: string) => {
  const parsed = parse<{ data: { name: string }[]; meta: { totalCount: number } }>(body);
  return (
    parsed?.meta.totalCount === total &&
    parsed.data.length === LIMIT &&
    parsed.data.every((g, i) => g.name === `Grupo ${pad(i + 1)}`)
  );
};

/** Page 1 of the members: the exact total, the OWNER first, then members in joining order. */
const membersCheck = (total: number, ownerId: string) => (body: string) => {
  const parsed = parse<{
    data: { user: { id: string }; role: string }[];
    meta: { totalCount: number };
  }>(body);
  return (
    parsed?.meta.totalCount === total &&
    parsed.data.length === LIMIT &&
    parsed.data[0]?.user.id === ownerId &&
    parsed.data[0].role === 'OWNER' &&
    parsed.data.slice(1).every((m) => m.role === 'MEMBER')
  );
};

export async function groupLists(options: {
  sizes: [number, number];
  timing: Timing;
  passwordHash: string;
  poolMax: string;
  migrate: (url: string) => void;
  token: (user: SeededUser) => string;
}): Promise<{ results: RunResult[]; ratios: Ratio[]; databases: string[] }> {
  const [smallSize, largeSize] = options.sizes;
  const small = await seedSize(
    'campus_bench_groups_small',
    smallSize,
    options.passwordHash,
    options.migrate,
  );
  const large = await seedSize(
    'campus_bench_groups_large',
    largeSize,
    options.passwordHash,
    options.migrate,
  );
  const servers = await Promise.all(
    [small, large].map((s) =>
      startServer(`server (${s.groups} groups)`, {
        DATABASE_URL: s.url,
        DATABASE_POOL_MAX: options.poolMax,
      }),
    ),
  );
  try {
    const at = (n: number) => n.toLocaleString('en');
    const loads = [small, large].flatMap((s, i) => {
      const headers = { authorization: `Bearer ${options.token(s.owner)}` };
      return [
        {
          name: `GET /group page 1 @ ${at(s.groups)} groups`,
          service: servers[i]!,
          path: '/group',
          headers,
          check: groupsCheck(s.groups),
        },
        {
          name: `GET /group/:id/members page 1 @ ${at(s.groups)} members`,
          service: servers[i]!,
          path: `/group/${s.groupId}/members`,
          headers,
          check: membersCheck(s.groups, s.owner.id),
        },
      ];
    });
    const results = await compare(loads, options.timing);
    const [smallList, smallMembers, largeList, largeMembers] = results as [
      RunResult,
      RunResult,
      RunResult,
      RunResult,
    ];
    const flat = (target: string, l: RunResult, s: RunResult): Ratio => {
      const value = l.requestsPerSec / s.requestsPerSec;
      return {
        target,
        value,
        goal: '≥ 0.80',
        met: value >= 0.8,
        detail: `${l.requestsPerSec.toFixed(0)} / ${s.requestsPerSec.toFixed(0)}`,
      };
    };
    return {
      results,
      ratios: [
        flat(
          `GET /group page 1: ${at(largeSize)} / ${at(smallSize)} groups, req/s`,
          largeList,
          smallList,
        ),
        flat(
          `GET /group/:id/members page 1: ${at(largeSize)} / ${at(smallSize)} members, req/s`,
          largeMembers,
          smallMembers,
        ),
      ],
      databases: [small.name, large.name],
    };
  } finally {
    await Promise.all(servers.map((s) => stopProcess(s)));
  }
}
