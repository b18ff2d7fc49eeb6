import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../../server/src/config';
import { createLogger } from '../../../server/src/logger';
import { startServer } from '../../../server/src/start';
import { startPushService, type TestPushService } from '../../../server/test/support/push-service';
import {
  apiCall,
  apiLogin,
  postViaApi,
  registerViaApi,
  sessionFor,
  uniqueStudent,
  visible,
} from './support/browser';
import { freePort } from './support/server';
import { describeE2e } from './support/suite';

/**
 * Push in Chromium, against a push service in the test process (apps/server/test/support/
 * push-service.ts: it verifies each message's VAPID signature and decrypts it, RFC 8291/8292).
 *
 * Exercised: the service worker registered by the built app; "Ativar notificações" asking for
 * the (granted) permission on its click; the server encrypting, signing and POSTing a real
 * comment's notification to the push service; that decrypted payload handed to the service
 * worker's `push` handler (CDP ServiceWorker.deliverPushMessage), which shows the notification
 * (read back with getNotifications); its `notificationclick` handler, fired in the worker with
 * that notification, taking the open tab to the deep link; the app shell opening offline.
 *
 * Not exercised, and why: Chromium's PushManager.subscribe talks only to Google's FCM, which
 * this closed network cannot reach, so the subscription sent to the server is one whose keys the
 * test push service holds (the browser's own decryption is replaced by the push service's); the
 * click is a NotificationEvent dispatched in the worker, not an OS click, so it carries no user
 * activation (focusing the tab and opening a new window, which need one, are not checked).
 */
describeE2e('push notifications', ({ browser }) => {
  let baseUrl = '';
  let publicKey = '';
  let push: TestPushService;
  let stop = async () => {};

  beforeAll(async () => {
    push = await startPushService(async () => publicKey);
    const dataDir = mkdtempSync(join(tmpdir(), 'campus-web-push-'));
    const port = await freePort();
    const config = loadConfig({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      RATE_LIMIT: 'off',
      SHUTDOWN_DELAY: '0',
      LOG_LEVEL: 'silent',
      PASSWORD_HASH_COST: '12',
      REQUEST_TIMEOUT_MS: '60000',
      PUSH_ENDPOINT_HOSTS: '127.0.0.1',
    });
    const { shutdown } = await startServer(config, createLogger('silent'));
    baseUrl = `http://127.0.0.1:${port}`;
    publicKey = (
      (await (await fetch(`${baseUrl}/notifications/push/public-key`)).json()) as {
        publicKey: string;
      }
    ).publicKey;
    stop = async () => {
      await shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }, 120_000);
  afterAll(async () => {
    await stop();
    await push?.stop();
  });

  it('a pushed comment is shown by the service worker, and its tap opens the post', async () => {
    const student = await registerViaApi(baseUrl, uniqueStudent('push'));
    const reader = await registerViaApi(baseUrl, uniqueStudent('leitor'));
    const { context, page } = await sessionFor(browser(), baseUrl, student);
    await context.grantPermissions(['notifications'], { origin: baseUrl });
    await page.goto('/minha-conta');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const enable = page.getByRole('button', { name: 'Ativar notificações' });
    await visible(enable);
    await enable.click();
    // The click asked for the permission (granted by the test); FCM being unreachable here, the
    // page then either says it could not subscribe or is still trying: either way it asked.
    expect(await page.evaluate(() => Notification.permission)).toBe('granted');
    await visible(page.getByRole('switch', { name: 'Comentários nas minhas publicações' }));

    const { accessToken } = await apiLogin(baseUrl, student);
    const subscription = push.subscription();
    await apiCall(
      baseUrl,
      accessToken,
      'POST',
      '/notifications/push/subscriptions',
      subscription,
      201,
    );
    const post = await postViaApi(baseUrl, student, 'Quem topa vôlei?');
    const { accessToken: readerToken } = await apiLogin(baseUrl, reader);
    await apiCall(
      baseUrl,
      readerToken,
      'POST',
      `/post/${post.id as string}/comment`,
      { content: 'Eu!' },
      201,
    );
    const message = await push.waitFor((m) => m.endpoint === subscription.endpoint);
    expect(message.payload).toMatchObject({
      type: 'POST_COMMENT',
      url: `/feed/${post.id as string}`,
    });

    // The decrypted payload, into the service worker's push handler.
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const found = (registrations as { registrationId: string; scopeURL: string }[]).find(
          (r) => r.scopeURL === `${baseUrl}/`,
        );
        if (found) resolve(found.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: baseUrl,
      registrationId: await registrationId,
      data: JSON.stringify(message.payload),
    });
    const shown = async () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          icon: n.icon,
          data: n.data as unknown,
        })),
      );
    await expect.poll(shown, { timeout: 10_000 }).toHaveLength(1);
    expect((await shown())[0]).toEqual({
      title: 'Novo comentário',
      body: message.payload.body,
      tag: message.payload.notificationId,
      icon: `${baseUrl}/icons/icon-192.png`,
      data: { url: `/feed/${post.id as string}` },
    });

    // A tap on it, in the worker: the open tab goes to the post.
    const [worker] = context.serviceWorkers();
    await worker!.evaluate(async () => {
      const scope = self as unknown as {
        registration: { getNotifications(): Promise<Notification[]> };
        dispatchEvent(event: Event): boolean;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      };
      const [notification] = await scope.registration.getNotifications();
      scope.dispatchEvent(
        new scope.NotificationEvent('notificationclick', { notification: notification! }),
      );
    });
    await page.waitForURL(`**/feed/${post.id as string}`);
    await visible(page.getByRole('heading', { name: 'Quem topa vôlei?' }));
    await context.close();
  });

  it('the app shell opens without the network on a second visit', async () => {
    const student = await registerViaApi(baseUrl, uniqueStudent('offline'));
    const { context, page } = await sessionFor(browser(), baseUrl, student);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await context.setOffline(true);
    await page.goto('/partidas');
    expect(await page.title()).toBe('Campus');
    await visible(page.locator('#root > *'));
    // Really offline: what the worker does not keep (the API) does not answer.
    const api = await page.evaluate(() =>
      fetch('/health').then(
        () => 'answered',
        () => 'unreachable',
      ),
    );
    expect(api).toBe('unreachable');
    await context.setOffline(false);
    await context.close();
  });
});
