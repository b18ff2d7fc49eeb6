import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { allowedEndpoint, isListedLoopback, isPublicAddress } from './endpoint';

/** One message for one subscription, as web-push encrypts and signs it. */
export interface PushRequest {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  payload: string;
  ttlSeconds: number;
  urgency: 'high' | 'normal';
}

export interface PushTransport {
  /** The allow-list (PUSH_ENDPOINT_HOSTS), checked again before each send. */
  hosts: readonly string[];
  vapid: { subject: string; publicKey: string; privateKey: string };
  timeoutMs: number;
}

/** The push service's answer: its status, and its Retry-After in seconds when it gave one. */
export interface PushAnswer {
  status: number;
  retryAfterSeconds?: number;
}

/**
 * A DNS lookup that refuses private, loopback and link-local addresses (a listed host pointed at
 * the inside of the network), except loopback for a listed loopback name (tests).
 */
function guardedLookup(hosts: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const loopbackOk = isListedLoopback(hostname, hosts);
      const refused = found.find(
        (a) => !isPublicAddress(a.address) && !(loopbackOk && /^(127\.|::1$)/.test(a.address)),
      );
      if (refused || found.length === 0) {
        const denied = Object.assign(new Error(`push endpoint resolves to ${refused?.address}`), {
          code: 'EPUSHADDRESS',
        });
        return callback(denied, '', 4);
      }
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, found);
      callback(null, found[0]!.address, found[0]!.family);
    });
  };
}

const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

/**
 * POSTs one message: `aes128gcm` encryption and the VAPID `Authorization` by web-push
 * (`generateRequestDetails`), sent here so that the endpoint is checked against the allow-list
 * again, every resolved address is checked, and a redirect is an answer, never followed.
 */
export async function sendPush(
  request: PushRequest,
  transport: PushTransport,
): Promise<PushAnswer> {
  const url = allowedEndpoint(request.endpoint, transport.hosts);
  const { default: webpush } = await import('web-push');
  const details = webpush.generateRequestDetails(
    { endpoint: request.endpoint, keys: request.keys },
    request.payload,
    {
      vapidDetails: transport.vapid,
      TTL: request.ttlSeconds,
      urgency: request.urgency,
      contentEncoding: 'aes128gcm',
    },
  );
  const client = url.protocol === 'http:' ? http : https;
  return new Promise<PushAnswer>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: details.headers as http.OutgoingHttpHeaders,
        agent: agents[url.protocol as 'http:' | 'https:'],
        lookup: guardedLookup(transport.hosts),
        timeout: transport.timeoutMs,
      },
      (res) => {
        res.resume();
        const retryAfter = Number(res.headers['retry-after']);
        resolve({
          status: res.statusCode ?? 0,
          ...(Number.isFinite(retryAfter) && retryAfter >= 0
            ? { retryAfterSeconds: retryAfter }
            : {}),
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('push service timed out')));
    req.on('error', reject);
    req.end(details.body);
  });
}
