import { pushSubscriptions } from '@campus/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers } from '../support/app';

/**
 * The push API (docs/contract/push.md) with the default allow-list: the VAPID key, subscriptions
 * (idempotent on endpoint, moved to the caller), deletion, preferences, and every endpoint the
 * service must refuse to POST to.
 */
const { t, users } = onTestAppWithUsers({}, {});
const [ana, bia] = users;

const keys = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};
const fcm = (id: string) => `https://fcm.googleapis.com/fcm/send/${id}`;

describe('GET /notifications/push/public-key', () => {
  it('is public, base64url P-256, and the same on every call', async () => {
    const first = await t.request.get('/notifications/push/public-key').expect(200);
    expect(first.body.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(Buffer.from(first.body.publicKey, 'base64url')[0]).toBe(4);
    const again = await t.request.get('/notifications/push/public-key').expect(200);
    expect(again.body.publicKey).toBe(first.body.publicKey);
    const trpc = await t.request.get('/trpc/notifications.pushPublicKey').expect(200);
    expect(trpc.body.result.data.publicKey).toBe(first.body.publicKey);
  });
});

describe('POST/DELETE /notifications/push/subscriptions', () => {
  it('201 new, 200 the same endpoint again (moved to the caller), 204 on delete', async () => {
    const endpoint = fcm(`ana-${Date.now()}`);
    const created = await t.request
      .post('/notifications/push/subscriptions')
      .set(ana.auth)
      .send({ endpoint, expirationTime: null, keys });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ endpointHost: 'fcm.googleapis.com', created: true });
    const again = await t.request
      .post('/notifications/push/subscriptions')
      .set(ana.auth)
      .send({ endpoint, keys });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(created.body.id);
    const moved = await t.request
      .post('/notifications/push/subscriptions')
      .set(bia.auth)
      .send({ endpoint, keys });
    expect(moved.status).toBe(200);
    const rows = await t.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, endpoint));
    expect(rows.map((r) => r.userId)).toEqual([bia.id]);
    // Ana's delete does not touch Bia's subscription; Bia's removes it.
    await t.request
      .delete('/notifications/push/subscriptions')
      .set(ana.auth)
      .send({ endpoint })
      .expect(204);
    expect(
      await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)),
    ).toHaveLength(1);
    await t.request
      .delete('/notifications/push/subscriptions')
      .set(bia.auth)
      .send({ endpoint })
      .expect(204);
    expect(
      await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)),
    ).toHaveLength(0);
  });

  it('over /trpc too', async () => {
    const endpoint = 'https://updates.push.services.mozilla.com/wpush/v2/gAAAA-trpc';
    const res = await t.request
      .post('/trpc/notifications.subscribePush')
      .set(ana.auth)
      .send({ endpoint, keys });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toMatchObject({
      endpointHost: 'updates.push.services.mozilla.com',
    });
  });

  it('accepts the push services of Chrome, Firefox, Edge and Safari by default', async () => {
    for (const endpoint of [
      fcm('x1'),
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://wns2-by3p.notify.windows.com/w/?token=abc',
      'https://web.push.apple.com/QGuQyavXutnMH',
    ]) {
      const res = await t.request
        .post('/notifications/push/subscriptions')
        .set(ana.auth)
        .send({ endpoint, keys });
      expect(res.status, endpoint).toBe(201);
    }
  });

  it.each([
    ['plain http', 'http://fcm.googleapis.com/fcm/send/x'],
    ['a look-alike suffix', 'https://fcm.googleapis.com.evil.example/fcm/send/x'],
    ['a look-alike prefix', 'https://evilfcm.googleapis.com/fcm/send/x'],
    ['a subdomain of an exact host', 'https://a.fcm.googleapis.com/x'],
    ['a wildcard without a subdomain', 'https://notify.windows.com/w'],
    ['a wildcard look-alike', 'https://x.notify.windows.com.evil.example/w'],
    ['credentials', 'https://user:pw@fcm.googleapis.com/fcm/send/x'],
    ['userinfo trick', 'https://fcm.googleapis.com@evil.example/x'],
    ['another port', 'https://fcm.googleapis.com:8443/fcm/send/x'],
    ['loopback', 'https://127.0.0.1/x'],
    ['loopback by name', 'http://localhost:8080/x'],
    ['IPv6 loopback', 'https://[::1]/x'],
    ['private', 'https://10.0.0.7/x'],
    ['link-local (cloud metadata)', 'https://169.254.169.254/latest/meta-data'],
    ['IPv4 in decimal', 'https://2130706433/x'],
    ['trailing dot', 'https://fcm.googleapis.com./fcm/send/x'],
    ['another scheme', 'file:///etc/passwd'],
    ['not a URL', 'fcm.googleapis.com/fcm/send/x'],
  ])('refuses %s: 400 PUSH_ENDPOINT_NOT_ALLOWED', async (_what, endpoint) => {
    const res = await t.request
      .post('/notifications/push/subscriptions')
      .set(ana.auth)
      .send({ endpoint, keys });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.reason).toBe('PUSH_ENDPOINT_NOT_ALLOWED');
    expect(
      await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)),
    ).toHaveLength(0);
  });

  it('400 on malformed keys, 401 without a token', async () => {
    const bad = await t.request
      .post('/notifications/push/subscriptions')
      .set(ana.auth)
      .send({ endpoint: fcm('k'), keys: { p256dh: 'not base64!', auth: '' } });
    expectError(bad, 400, 'BAD_REQUEST');
    const anonymous = await t.request
      .post('/notifications/push/subscriptions')
      .send({ endpoint: fcm('k'), keys });
    expect(anonymous.status).toBe(401);
  });
});

describe('GET/PATCH /notifications/preferences', () => {
  it('every type pushed by default; a PATCH changes only the types it names', async () => {
    const before = await t.request.get('/notifications/preferences').set(bia.auth).expect(200);
    expect(Object.values(before.body.types).every((p) => (p as { push: boolean }).push)).toBe(true);
    expect(Object.keys(before.body.types)).toContain('MATCH_SPOT_GRANTED');
    const after = await t.request
      .patch('/notifications/preferences')
      .set(bia.auth)
      .send({ types: { GROUP_POST: { push: false } } })
      .expect(200);
    expect(after.body.types.GROUP_POST).toEqual({ push: false });
    expect(after.body.types.POST_COMMENT).toEqual({ push: true });
    const read = await t.request.get('/notifications/preferences').set(bia.auth).expect(200);
    expect(read.body).toEqual(after.body);
    const other = await t.request.get('/notifications/preferences').set(ana.auth).expect(200);
    expect(other.body.types.GROUP_POST).toEqual({ push: true });
  });

  it('400 on an unknown type', async () => {
    const res = await t.request
      .patch('/notifications/preferences')
      .set(bia.auth)
      .send({ types: { NOPE: { push: false } } });
    expectError(res, 400, 'BAD_REQUEST');
  });
});
