import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';

/**
 * A push service (RFC 8030) in the test process, on 127.0.0.1: each message POSTed to one of its
 * endpoints is checked as a real push service and browser would check it, then kept decrypted.
 * - VAPID (RFC 8292): `Authorization: vapid t=<JWT>, k=<key>`; the ES256 signature is verified
 *   against `k`, which must be the server's public key, `aud` must be this service's origin and
 *   `exp` within 24 h. Anything else → 403, kept in `refused`.
 * - Encryption (RFC 8291, `Content-Encoding: aes128gcm`): decrypted with the browser's P-256
 *   private key and auth secret that `subscription()` made (http_ece).
 * An endpoint answers `answer(endpoint)` when set (410, 429, a redirect…); `down()` closes the
 * listener (connections refused) until `up()`.
 */
export interface PushedMessage {
  endpoint: string;
  ttl: string | undefined;
  urgency: string | undefined;
  payload: { notificationId: string; type: string; title: string; body: string; url: string };
}

interface Browser {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
}

export async function startPushService(expectedPublicKey: () => Promise<string>) {
  const browsers = new Map<string, Browser>();
  const answers = new Map<string, { status: number; headers?: Record<string, string> }>();
  const received: PushedMessage[] = [];
  const refused: string[] = [];
  const listeners = new Set<(message: PushedMessage) => void>();
  let port = 0;

  async function handle(
    req: IncomingMessage,
  ): Promise<{ status: number; headers?: Record<string, string> }> {
    const body = await readBody(req);
    const endpoint = `http://127.0.0.1:${port}${req.url}`;
    const browser = browsers.get(req.url ?? '');
    if (req.method !== 'POST' || !browser) return { status: 404 };
    const forced = answers.get(req.url!);
    if (forced) return forced;
    const problem = await checkVapid(
      req.headers.authorization,
      `http://127.0.0.1:${port}`,
      await expectedPublicKey(),
    );
    if (problem) {
      refused.push(problem);
      return { status: 403 };
    }
    if (req.headers['content-encoding'] !== 'aes128gcm') {
      refused.push(`content-encoding ${req.headers['content-encoding']}`);
      return { status: 415 };
    }
    const plain = ece.decrypt(body, {
      version: 'aes128gcm',
      privateKey: browser.ecdh,
      authSecret: browser.auth,
    });
    const message: PushedMessage = {
      endpoint,
      ttl: req.headers.ttl as string | undefined,
      urgency: req.headers.urgency as string | undefined,
      payload: JSON.parse(plain.toString('utf8')) as PushedMessage['payload'],
    };
    received.push(message);
    for (const listener of listeners) listener(message);
    return { status: 201, headers: { location: `${endpoint}/messages/${received.length}` } };
  }

  const server: Server = createServer((req, res) => {
    handle(req).then(
      ({ status, headers }) => res.writeHead(status, headers).end(),
      (error: unknown) => {
        refused.push(`undecryptable: ${(error as Error).message}`);
        res.writeHead(400).end();
      },
    );
  });
  const listen = () =>
    new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  await listen();
  port = (server.address() as AddressInfo).port;

  return {
    origin: () => `http://127.0.0.1:${port}`,
    received,
    refused,
    /** A browser's subscription on this service (PushSubscription.toJSON()'s shape). */
    subscription() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const path = `/push/${randomBytes(12).toString('base64url')}`;
      browsers.set(path, { ecdh, auth });
      return {
        endpoint: `http://127.0.0.1:${port}${path}`,
        keys: {
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: auth.toString('base64url'),
        },
      };
    },
    /** Keys of a browser made elsewhere (Chromium's), by endpoint path, to decrypt its messages. */
    answer(endpoint: string, status: number | undefined, headers?: Record<string, string>) {
      const path = new URL(endpoint).pathname;
      if (status === undefined) answers.delete(path);
      else answers.set(path, { status, ...(headers ? { headers } : {}) });
    },
    messagesFor: (endpoint: string) => received.filter((m) => m.endpoint === endpoint),
    /** Resolves with the first message (from now on or already received) that `match` accepts. */
    waitFor(match: (m: PushedMessage) => boolean, timeoutMs = 20_000): Promise<PushedMessage> {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(listener);
          reject(new Error(`no matching push within ${timeoutMs} ms (got ${received.length})`));
        }, timeoutMs);
        const listener = (m: PushedMessage) => {
          if (!match(m)) return;
          clearTimeout(timer);
          listeners.delete(listener);
          resolve(m);
        };
        listeners.add(listener);
      });
    },
    async down() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
    up: listen,
    async stop() {
      server.closeAllConnections();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    },
  };
}
export type TestPushService = Awaited<ReturnType<typeof startPushService>>;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** RFC 8292: what is wrong with this `Authorization`, or undefined when it is a valid VAPID one. */
async function checkVapid(header: string | undefined, audience: string, publicKey: string) {
  const match = header?.match(/^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/);
  if (!match) return `not a vapid Authorization: ${header}`;
  const [, jwt, k] = match;
  if (k !== publicKey) return 'k is not the server’s public key';
  const [head, claims, signature] = jwt!.split('.');
  const raw = Buffer.from(k!, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const valid = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature!, 'base64url'),
  );
  if (!valid) return 'bad ES256 signature';
  const header_ = JSON.parse(Buffer.from(head!, 'base64url').toString()) as { alg?: string };
  if (header_.alg !== 'ES256') return `alg ${header_.alg}`;
  const body = JSON.parse(Buffer.from(claims!, 'base64url').toString()) as {
    aud?: string;
    exp?: number;
    sub?: string;
  };
  if (body.aud !== audience) return `aud ${body.aud}`;
  const now = Date.now() / 1000;
  if (!body.exp || body.exp < now || body.exp > now + 24 * 3600) return `exp ${body.exp}`;
  if (!body.sub || !/^(mailto:|https:)/.test(body.sub)) return `sub ${body.sub}`;
  return undefined;
}
