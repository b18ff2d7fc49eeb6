import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { query } from './security/support';
import { expectError, type TestApp, type TestUser, onTestApp } from './support/app';
import { generalBody } from './support/feed';
import { startSecondInstance } from './support/two-instances';

/** `Idempotency-Key` on creating POSTs (docs/contract/protocol.md, Idempotency-Key). */

let t: TestApp;
let user: TestUser;
onTestApp(async (app) => {
  t = app;
  user = await t.createUser();
});

const postsTitled = async (title: string) =>
  Number(
    (await query(t.db, sql`select count(*)::int as n from posts where title = ${title}`))[0]!.n,
  );

/** POST /post with an Idempotency-Key, as `as` (the file's user) on `app` (the file's app); `.send` the body. */
const postWithKey = (key: string, as: TestUser = user, app: Pick<TestApp, 'request'> = t) =>
  app.request.post('/post').set(as.auth).set('Idempotency-Key', key);

describe('Idempotency-Key', () => {
  it('a retry with the same key and body answers the first answer again and creates nothing', async () => {
    const key = randomUUID();
    const body = generalBody(user, { title: `idem ${key}` });
    const first = await postWithKey(key).send(body);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await postWithKey(key).send(body);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    expect(await postsTitled(body.title)).toBe(1);
  });

  it('the same key with another body → 422 IDEMPOTENCY_KEY_REUSED; another user may use the same key', async () => {
    const key = randomUUID();
    await postWithKey(key)
      .send(generalBody(user, { title: `a ${key}` }))
      .expect(201);
    const other = await postWithKey(key).send(generalBody(user, { title: `b ${key}` }));
    expect(expectError(other, 422, 'UNPROCESSABLE_CONTENT').reason).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await postsTitled(`b ${key}`)).toBe(0);
    const someoneElse = await t.createUser();
    await postWithKey(key, someoneElse)
      .send(generalBody(someoneElse, { title: `b ${key}` }))
      .expect(201);
  });

  it('twenty simultaneous requests with one key create once; the others replay or are told it runs (409)', async () => {
    const key = randomUUID();
    const body = generalBody(user, { title: `race ${key}` });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => postWithKey(key).send(body)),
    );
    expect(await postsTitled(body.title)).toBe(1);
    const created = answers.filter((a) => a.status === 201);
    expect(created.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect(expectError(answer, 409, 'CONFLICT').reason).toBe('IDEMPOTENCY_KEY_IN_USE');
    }
    expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
  });

  it('a first request that failed leaves the key free, so the corrected retry creates', async () => {
    const key = randomUUID();
    const bad = await postWithKey(key).send(generalBody(user, { title: '' }));
    expect(bad.status).toBe(400);
    await postWithKey(key)
      .send(generalBody(user, { title: `fixed ${key}` }))
      .expect(201);
  });

  it('a malformed key → 400; reads ignore the header', async () => {
    const tooLong = 'k'.repeat(256);
    expectError(await postWithKey(tooLong).send(generalBody(user)), 400, 'BAD_REQUEST');
    await t.request.get('/post').set(user.auth).set('Idempotency-Key', tooLong).expect(200);
  });

  it('over /trpc too (the browser): the same key replays the first answer, over REST as well', async () => {
    const key = randomUUID();
    const body = generalBody(user, { title: `trpc ${key}` });
    const call = () =>
      t.request.post('/trpc/feed.create').set(user.auth).set('Idempotency-Key', key).send(body);
    const first = await call();
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await call();
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.result.data).toEqual(first.body.result.data);
    // One claim for both transports: the REST retry of the same create replays it too.
    const rest = await postWithKey(key).send(body);
    expect(rest.status).toBe(201);
    expect(rest.body.id).toBe(first.body.result.data.id);
    expect(await postsTitled(body.title)).toBe(1);
    // A query ignores the header; another body with the key is refused as over REST.
    await t.request.get('/trpc/auth.me').set(user.auth).set('Idempotency-Key', key).expect(200);
    const other = await t.request
      .post('/trpc/feed.create')
      .set(user.auth)
      .set('Idempotency-Key', key)
      .send({ ...body, title: `other ${key}` });
    expect(other.status).toBe(422);
    expect(other.body.error.data.reason).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it(
    'holds across processes: the other process replays the first answer',
    { tags: ['postgres-only'] },
    async () => {
      const second = await startSecondInstance(t);
      try {
        const key = randomUUID();
        const body = generalBody(user, { title: `procs ${key}` });
        const first = await postWithKey(key).send(body).expect(201);
        const there = await postWithKey(key, user, second).send(body);
        expect(there.status).toBe(201);
        expect(there.headers['idempotent-replayed']).toBe('true');
        expect(there.body).toEqual(first.body);
        expect(await postsTitled(body.title)).toBe(1);
      } finally {
        await second.close();
      }
    },
  );
});
