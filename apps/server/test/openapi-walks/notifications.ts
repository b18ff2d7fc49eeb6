import { describe, expect, it } from 'vitest';
import type { TestUser } from '../support/app';
import { UNKNOWN, example, type Walk } from '../support/openapi-walk';
import { openStream } from '../support/sse';

/** Notifications and the live streams (a part of the walk in openapi-responses.test.ts). */
export function notificationsWalk(w: Walk) {
  const { call } = w;

  describe('notifications and live streams', () => {
    /** Opens a REST event stream, waits for its first event (the current state), closes it. */
    async function stream(path: string, as: TestUser) {
      const opened = await openStream(`${w.t.baseUrl}${path}`, as.auth);
      expect(opened.response.status, path).toBe(200);
      expect(opened.response.headers.get('content-type'), path).toMatch(/^text\/event-stream/);
      await opened.next(1);
      await opened.close();
      // Each event was checked against the document by the test app's response check.
      w.record('GET', path, 200);
    }

    it('the inbox, its unread count, reading, and the four streams', async () => {
      const { ana, bia } = w;
      const post = await w.t.request
        .post('/post')
        .set(ana.auth)
        .send({ title: 'Inbox', type: 'GENERAL', author: ana.nickname, authorId: ana.id });
      await w.t.request.post(`/post/${post.body.id}/comment`).set(bia.auth).send({ content: 'Oi' });
      const inbox = await call('GET', '/notifications?unread=true', 200, { as: ana });
      const [first] = (inbox.body as { data: Array<{ id: string }> }).data;
      expect(first).toBeDefined();
      await call('GET', '/notifications?unread=maybe', 400, { as: ana });
      await call('GET', '/notifications/unread-count', 200, { as: ana });
      await call('GET', '/notifications/unread-count', 401);
      await call('PATCH', `/notifications/${first!.id}/read`, 200, { as: ana });
      await call('PATCH', `/notifications/${first!.id}/read`, 404, { as: bia });
      await call('POST', '/notifications/read-all', 200, { as: ana });
      await call('POST', '/notifications/read-all', 401);

      const match = await w.t.request
        .post('/match')
        .set(ana.auth)
        .send(example('POST', '/match', { userId: ana.id }));
      expect(match.status).toBe(201);
      await stream('/notifications/stream', ana);
      await call('GET', '/notifications/stream', 401);
      await stream(`/match/${match.body.id}/stream`, bia);
      await call('GET', `/match/${UNKNOWN}/stream`, 404, { as: bia });
      await stream(`/post/${post.body.id}/stream`, bia);
      await call('GET', `/post/${UNKNOWN}/stream`, 404, { as: bia });
      await stream('/streams/feed', bia);
      await call('GET', '/streams/feed', 401);
    });

    it('push: the public key, subscriptions, preferences (docs/contract/push.md)', async () => {
      const { ana } = w;
      const path = '/notifications/push/subscriptions';
      await call('GET', '/notifications/push/public-key', 200);
      const subscription = example('POST', path);
      await call('POST', path, 201, { as: ana, body: subscription });
      await call('POST', path, 200, { as: ana, body: subscription });
      const elsewhere = { ...subscription, endpoint: 'https://169.254.169.254/latest' };
      await call('POST', path, 400, { as: ana, body: elsewhere });
      await call('DELETE', path, 204, { as: ana, body: example('DELETE', path) });
      await call('DELETE', path, 401, { body: example('DELETE', path) });
      await call('GET', '/notifications/preferences', 200, { as: ana });
      await call('GET', '/notifications/preferences', 401);
      const patch = example('PATCH', '/notifications/preferences');
      await call('PATCH', '/notifications/preferences', 200, { as: ana, body: patch });
      await call('PATCH', '/notifications/preferences', 400, {
        as: ana,
        body: { types: { NOPE: { push: true } } },
      });
    });
  });
}
