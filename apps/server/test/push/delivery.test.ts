import { notifications, pushOutbox, pushSubscriptions } from '@campus/core';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../support/app';
import { commentOn, createPost } from '../support/feed';
import { createMatch } from '../support/matches';
import { waitFor } from '../support/process';
import { startPushService, type TestPushService } from '../support/push-service';

/**
 * Delivery through the job queue to a push service in the test process, which verifies each
 * message's VAPID signature and decrypts it (support/push-service.ts): every notification reaches
 * each subscription of its person once, with its urgency; 404/410 delete the subscription; a
 * service that is down gets the message when it is back; a redirect is never followed.
 */
let t: TestApp;
let push: TestPushService;

beforeAll(async () => {
  push = await startPushService(async () => {
    const res = await t.request.get('/notifications/push/public-key');
    return res.body.publicKey as string;
  });
  t = await startTestApp({ jobs: true, push: { endpointHosts: ['127.0.0.1'] } });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await push?.stop();
});

async function subscribed(user: TestUser) {
  const subscription = push.subscription();
  const res = await t.request
    .post('/notifications/push/subscriptions')
    .set(user.auth)
    .send(subscription);
  expect(res.status).toBe(201);
  return subscription.endpoint;
}

const notificationOf = async (userId: string, type: string) =>
  (
    await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.type, type as 'POST_COMMENT')))
  )[0]!;

/** Waits until the outbox has nothing left to send (so a duplicate would have been sent by now). */
const outboxSettled = () =>
  waitFor(
    async () =>
      (await t.db.select().from(pushOutbox).where(isNull(pushOutbox.sentAt))).length === 0,
    20_000,
    'push outbox drained',
  );

describe('push delivery', () => {
  it('a comment reaches each of the author’s subscriptions, decrypted, once', async () => {
    const [author, reader] = await t.createUsers({}, {});
    const phone = await subscribed(author);
    const laptop = await subscribed(author);
    const post = await createPost(t, author);
    expect((await commentOn(t, post.id, reader, 'Bora!')).status).toBe(201);
    const notification = await notificationOf(author.id, 'POST_COMMENT');
    for (const endpoint of [phone, laptop]) {
      const message = await push.waitFor(
        (m) => m.endpoint === endpoint && m.payload.notificationId === notification.id,
      );
      expect(message.payload).toEqual({
        notificationId: notification.id,
        type: 'POST_COMMENT',
        title: 'Novo comentário',
        body: notification.message,
        url: `/feed/${post.id}`,
      });
      expect(message.urgency).toBe('normal');
      expect(message.ttl).toBe('86400');
    }
    await outboxSettled();
    for (const endpoint of [phone, laptop])
      expect(
        push.messagesFor(endpoint).filter((m) => m.payload.notificationId === notification.id),
      ).toHaveLength(1);
    expect(push.refused).toEqual([]);
  });

  it('a granted spot and a reminder are pushed with Urgency: high', async () => {
    const [organiser, first, waiting] = await t.createUsers({}, {}, {});
    const endpoint = await subscribed(waiting);
    const match = await createMatch(t, organiser, {
      maxPlayers: 2,
      MatchDate: new Date(Date.now() + 3600_000).toISOString(),
    });
    await t.request.post(`/match/${match.id}/subscribe`).set(first.auth).expect(201);
    await t.request.post(`/match/${match.id}/subscribe`).set(organiser.auth).expect(201);
    await t.request.post(`/match/${match.id}/waitlist`).set(waiting.auth).expect(201);
    await t.request.delete(`/match/${match.id}/unsubscribe`).set(first.auth).expect(200);
    const granted = await push.waitFor(
      (m) => m.endpoint === endpoint && m.payload.type === 'MATCH_SPOT_GRANTED',
    );
    expect(granted.urgency).toBe('high');
    expect(granted.payload.url).toBe(`/partidas/${match.id}`);
    // Inside the reminder lead: the new player is reminded at once.
    const reminder = await push.waitFor(
      (m) => m.endpoint === endpoint && m.payload.type === 'MATCH_REMINDER',
    );
    expect(reminder.urgency).toBe('high');
    expect(reminder.payload.title).toBe('Lembrete de partida');
  });

  it('a type turned off is not pushed (the inbox still records it)', async () => {
    const [author, reader] = await t.createUsers({}, {});
    await subscribed(author);
    await t.request
      .patch('/notifications/preferences')
      .set(author.auth)
      .send({ types: { POST_COMMENT: { push: false } } })
      .expect(200);
    const post = await createPost(t, author);
    expect((await commentOn(t, post.id, reader, 'Oi')).status).toBe(201);
    const notification = await notificationOf(author.id, 'POST_COMMENT');
    expect(
      await t.db.select().from(pushOutbox).where(eq(pushOutbox.notificationId, notification.id)),
    ).toEqual([]);
  });

  it('404 and 410 delete the subscription', async () => {
    for (const status of [410, 404]) {
      const [author, reader] = await t.createUsers({}, {});
      const endpoint = await subscribed(author);
      push.answer(endpoint, status);
      const post = await createPost(t, author);
      expect((await commentOn(t, post.id, reader, 'Oi')).status).toBe(201);
      await waitFor(
        async () =>
          (
            await t.db
              .select()
              .from(pushSubscriptions)
              .where(eq(pushSubscriptions.endpoint, endpoint))
          ).length === 0,
        20_000,
        `subscription deleted after ${status}`,
      );
    }
  });

  it('429 and 5xx are retried, honouring Retry-After', async () => {
    const [author, reader] = await t.createUsers({}, {});
    const endpoint = await subscribed(author);
    push.answer(endpoint, 429, { 'retry-after': '1' });
    const post = await createPost(t, author);
    expect((await commentOn(t, post.id, reader, 'Oi')).status).toBe(201);
    const notification = await notificationOf(author.id, 'POST_COMMENT');
    await waitFor(
      async () =>
        (
          await t.db.select().from(pushOutbox).where(eq(pushOutbox.notificationId, notification.id))
        )[0]?.lastError === 'HTTP 429',
      20_000,
      'a refused try',
    );
    push.answer(endpoint, 503, { 'retry-after': '1' });
    await waitFor(
      async () =>
        (
          await t.db.select().from(pushOutbox).where(eq(pushOutbox.notificationId, notification.id))
        )[0]?.lastError === 'HTTP 503',
      20_000,
      'a second refused try',
    );
    push.answer(endpoint, undefined);
    const message = await push.waitFor((m) => m.payload.notificationId === notification.id, 30_000);
    expect(message.endpoint).toBe(endpoint);
  }, 60_000);

  it('a push service that was down gets the message once it is back', async () => {
    const [author, reader] = await t.createUsers({}, {});
    const endpoint = await subscribed(author);
    await push.down();
    try {
      const post = await createPost(t, author);
      expect((await commentOn(t, post.id, reader, 'Oi')).status).toBe(201);
      const notification = await notificationOf(author.id, 'POST_COMMENT');
      await waitFor(
        async () =>
          ((
            await t.db
              .select()
              .from(pushOutbox)
              .where(eq(pushOutbox.notificationId, notification.id))
          )[0]?.attempts ?? 0) > 0,
        20_000,
        'a failed try while down',
      );
    } finally {
      await push.up();
    }
    const message = await push.waitFor((m) => m.endpoint === endpoint, 30_000);
    expect(message.payload.type).toBe('POST_COMMENT');
  }, 60_000);

  it('a redirect is not followed: the message is dropped', async () => {
    const [author, reader] = await t.createUsers({}, {});
    const endpoint = await subscribed(author);
    const elsewhere = push.subscription().endpoint;
    push.answer(endpoint, 307, { location: elsewhere });
    const post = await createPost(t, author);
    expect((await commentOn(t, post.id, reader, 'Oi')).status).toBe(201);
    const notification = await notificationOf(author.id, 'POST_COMMENT');
    await outboxSettled();
    expect(
      await t.db.select().from(pushOutbox).where(eq(pushOutbox.notificationId, notification.id)),
    ).toEqual([]);
    expect(push.messagesFor(elsewhere)).toEqual([]);
  });
});

describe('push and the account', () => {
  it('the export lists subscriptions by host only; deleting the account removes them', async () => {
    const user = await t.createUser();
    const endpoint = await subscribed(user);
    const exported = await t.request.get('/autenticacao/meus-dados').set(user.auth).expect(200);
    expect(exported.body.dados.dispositivosPush).toEqual([
      expect.objectContaining({ endpointHost: new URL(endpoint).host }),
    ]);
    expect(JSON.stringify(exported.body)).not.toContain(new URL(endpoint).pathname);
    await t.request
      .delete('/autenticacao/conta')
      .set(user.auth)
      .send({ senha: user.password })
      .expect(204);
    expect(
      await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id)),
    ).toEqual([]);
  });
});
