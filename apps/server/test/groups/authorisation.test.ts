import { randomBytes } from 'node:crypto';
import { appRouter } from '@campus/api';
import { groupFollows, groupJoinRequests, groupMembers, groups } from '@campus/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../support/app';
import { groupBody } from '../support/groups';

/**
 * Who may call what (docs/contract/groups.md): every group procedure × {no token, stranger, MEMBER,
 * ADMIN, OWNER, site ADMIN}, over REST and over /trpc. Each cell gets a fresh group (rows written
 * straight to the tables) with an OWNER, an ADMIN, a MEMBER, a second MEMBER to act on, and a
 * pending request, so no cell depends on another.
 */

const CALLERS = ['none', 'stranger', 'MEMBER', 'ADMIN', 'OWNER', 'siteAdmin'] as const;
type Caller = (typeof CALLERS)[number];

let t: TestApp;
let people: Record<Exclude<Caller, 'none'> | 'target' | 'asker', TestUser>;
beforeAll(async () => {
  t = await startTestApp();
  const [stranger, member, admin, owner, siteAdmin, target, asker] = await Promise.all([
    t.createUser(),
    t.createUser(),
    t.createUser(),
    t.createUser(),
    t.createUser({ perfil: 'ADMIN' }),
    t.createUser(),
    t.createUser(),
  ]);
  people = {
    stranger: stranger!,
    MEMBER: member!,
    ADMIN: admin!,
    OWNER: owner!,
    siteAdmin: siteAdmin!,
    target: target!,
    asker: asker!,
  };
});
afterAll(() => t.close());

interface Fixture {
  groupId: string;
  requestId: string;
}

/** A fresh group; the caller (if a stranger) has a pending request of its own and follows it. */
async function fixture(caller: Caller): Promise<Fixture> {
  const [group] = await t.db
    .insert(groups)
    .values({ name: `Matrix ${randomBytes(6).toString('hex')}`, groupType: 'OTHER' })
    .returning({ id: groups.id });
  const groupId = group!.id;
  await t.db.insert(groupMembers).values([
    { groupId, userId: people.OWNER.id, role: 'OWNER' },
    { groupId, userId: people.ADMIN.id, role: 'ADMIN' },
    { groupId, userId: people.MEMBER.id, role: 'MEMBER' },
    { groupId, userId: people.target.id, role: 'MEMBER' },
  ]);
  const [request] = await t.db
    .insert(groupJoinRequests)
    .values({ groupId, userId: people.asker.id })
    .returning({ id: groupJoinRequests.id });
  if (caller === 'stranger')
    await t.db.insert(groupJoinRequests).values({ groupId, userId: people.stranger.id });
  if (caller !== 'none')
    await t.db.insert(groupFollows).values({ groupId, userId: people[caller].id });
  return { groupId, requestId: request!.id };
}

type Expected = Record<Exclude<Caller, 'none'>, number>;
const all = (status: number): Expected => ({
  stranger: status,
  MEMBER: status,
  ADMIN: status,
  OWNER: status,
  siteAdmin: status,
});

interface Endpoint {
  procedure: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: (f: Fixture) => string;
  input: (f: Fixture) => Record<string, unknown>;
  body?: () => Record<string, unknown>;
  expected: Expected;
}

const ENDPOINTS: Endpoint[] = [
  { procedure: 'list', method: 'GET', path: () => '/group', input: () => ({}), expected: all(200) },
  {
    procedure: 'removeLogo',
    method: 'DELETE',
    path: (f) => `/group/${f.groupId}/logo`,
    input: (f) => ({ id: f.groupId }),
    expected: { stranger: 403, MEMBER: 403, ADMIN: 204, OWNER: 204, siteAdmin: 204 },
  },
  {
    procedure: 'get',
    method: 'GET',
    path: (f) => `/group/${f.groupId}`,
    input: (f) => ({ id: f.groupId }),
    expected: all(200),
  },
  {
    procedure: 'create',
    method: 'POST',
    path: () => '/group',
    input: () => ({}),
    body: () => groupBody(),
    expected: all(201),
  },
  {
    procedure: 'update',
    method: 'PATCH',
    path: (f) => `/group/${f.groupId}`,
    input: (f) => ({ id: f.groupId }),
    body: () => ({ description: 'Changed' }),
    expected: { stranger: 403, MEMBER: 403, ADMIN: 200, OWNER: 200, siteAdmin: 200 },
  },
  {
    procedure: 'remove',
    method: 'DELETE',
    path: (f) => `/group/${f.groupId}`,
    input: (f) => ({ id: f.groupId }),
    expected: { stranger: 403, MEMBER: 403, ADMIN: 403, OWNER: 204, siteAdmin: 204 },
  },
  {
    procedure: 'requestToJoin',
    method: 'POST',
    path: (f) => `/group/${f.groupId}/requests`,
    input: (f) => ({ id: f.groupId }),
    // The stranger of the fixture already asked; the site ADMIN is not a member.
    expected: { stranger: 409, MEMBER: 409, ADMIN: 409, OWNER: 409, siteAdmin: 201 },
  },
  {
    procedure: 'listRequests',
    method: 'GET',
    path: (f) => `/group/${f.groupId}/requests`,
    input: (f) => ({ id: f.groupId }),
    expected: { stranger: 403, MEMBER: 403, ADMIN: 200, OWNER: 200, siteAdmin: 200 },
  },
  ...(['approveRequest', 'rejectRequest'] as const).map((procedure): Endpoint => ({
    procedure,
    method: 'POST',
    path: (f) =>
      `/group/${f.groupId}/requests/${f.requestId}/${procedure === 'approveRequest' ? 'approve' : 'reject'}`,
    input: (f) => ({ id: f.groupId, requestId: f.requestId }),
    expected: { stranger: 403, MEMBER: 403, ADMIN: 200, OWNER: 200, siteAdmin: 200 },
  })),
  {
    procedure: 'withdrawRequest',
    method: 'DELETE',
    path: (f) => `/group/${f.groupId}/requests/mine`,
    input: (f) => ({ id: f.groupId }),
    // Only one's own request: the stranger has one; nobody else does.
    expected: { stranger: 204, MEMBER: 404, ADMIN: 404, OWNER: 404, siteAdmin: 404 },
  },
  {
    procedure: 'listMembers',
    method: 'GET',
    path: (f) => `/group/${f.groupId}/members`,
    input: (f) => ({ id: f.groupId }),
    expected: all(200),
  },
  {
    procedure: 'changeRole',
    method: 'PATCH',
    path: (f) => `/group/${f.groupId}/members/${people.target.id}`,
    input: (f) => ({ id: f.groupId, userId: people.target.id }),
    body: () => ({ role: 'ADMIN' }),
    expected: { stranger: 403, MEMBER: 403, ADMIN: 403, OWNER: 200, siteAdmin: 200 },
  },
  {
    procedure: 'removeMember',
    method: 'DELETE',
    path: (f) => `/group/${f.groupId}/members/${people.target.id}`,
    input: (f) => ({ id: f.groupId, userId: people.target.id }),
    expected: { stranger: 403, MEMBER: 403, ADMIN: 204, OWNER: 204, siteAdmin: 204 },
  },
  {
    procedure: 'follow',
    method: 'POST',
    path: (f) => `/group/${f.groupId}/follow`,
    input: (f) => ({ id: f.groupId }),
    // Every caller of the fixture already follows.
    expected: all(409),
  },
  {
    procedure: 'unfollow',
    method: 'DELETE',
    path: (f) => `/group/${f.groupId}/follow`,
    input: (f) => ({ id: f.groupId }),
    expected: all(204),
  },
];

async function call(transport: 'REST' | 'trpc', endpoint: Endpoint, caller: Caller) {
  const f = await fixture(caller);
  const auth = caller === 'none' ? {} : people[caller].auth;
  const body = endpoint.body?.() ?? {};
  if (transport === 'REST') {
    const path = endpoint.path(f);
    const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
    const req = t.request[method](path).set(auth);
    return endpoint.method === 'GET' ? req : req.send(body);
  }
  const input = { ...endpoint.input(f), ...body };
  const path = `/trpc/groups.${endpoint.procedure}`;
  return endpoint.method === 'GET'
    ? t.request.get(`${path}?input=${encodeURIComponent(JSON.stringify(input))}`).set(auth)
    : t.request.post(path).set(auth).send(input);
}

/** Uploads take a multipart body: who may set a logo is tested in test/media/logos.test.ts. */
const MULTIPART = new Set(['setLogo']);

/** Procedures in the router and rows in the table are the same set: a new endpoint needs a row. */
it('the matrix covers every group procedure', () => {
  const procedures = Object.keys(appRouter._def.procedures)
    .filter((p) => p.startsWith('groups.'))
    .map((p) => p.slice('groups.'.length))
    .filter((p) => !MULTIPART.has(p))
    .sort();
  expect(ENDPOINTS.map((e) => e.procedure).sort()).toEqual(procedures);
});

for (const transport of ['REST', 'trpc'] as const) {
  describe(`over ${transport}`, () => {
    const cells = ENDPOINTS.flatMap((endpoint) =>
      CALLERS.map((caller) => {
        const status = caller === 'none' ? 401 : endpoint.expected[caller];
        // /trpc answers every success 200.
        const expected = transport === 'trpc' && status < 300 ? 200 : status;
        return [`${endpoint.method} ${endpoint.procedure}`, caller, expected, endpoint] as const;
      }),
    );
    it.each(cells)('%s by %s → %i', async (_label, caller, expected, endpoint) => {
      const res = await call(transport, endpoint, caller);
      expect(res.status, JSON.stringify(res.body)).toBe(expected);
      if (expected === 403) {
        const reason = transport === 'REST' ? res.body.reason : res.body.error?.data?.reason;
        expect(['GROUP_FORBIDDEN', 'ADMIN_REQUIRED']).toContain(reason);
      }
    });
  });
}
