import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../../errors';

/**
 * Where the service may POST (docs/contract/push.md, Endpoints): the push services of Chrome
 * (FCM), Firefox (Mozilla autopush), Edge (WNS) and Safari (Apple). `*.` allows any subdomain.
 */
export const DEFAULT_PUSH_ENDPOINT_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.notify.windows.com',
  'web.push.apple.com',
] as const;

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export const notAllowed = (why: string) =>
  new AppError('BAD_REQUEST', `endpoint not allowed: ${why}`, {
    reason: 'PUSH_ENDPOINT_NOT_ALLOWED',
    issues: [{ path: 'endpoint', message: why }],
  });

/** `host` (URL.hostname: lower case, punycode, IPv6 in brackets) against one allow-list entry. */
function matches(host: string, entry: string): boolean {
  const wanted = entry.trim().toLowerCase();
  if (!wanted.startsWith('*.')) return host === wanted;
  const suffix = wanted.slice(1);
  return host.endsWith(suffix) && host.length > suffix.length && !host.startsWith('.');
}

/** True for an address a push service may have: public unicast, never private, loopback, link-local. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** True when `host` is a loopback name listed in the allow-list (tests' own push service). */
export const isListedLoopback = (host: string, hosts: readonly string[]) =>
  LOOPBACK_NAMES.has(host) && hosts.some((entry) => matches(host, entry));

/**
 * The endpoint as a URL, or 400 PUSH_ENDPOINT_NOT_ALLOWED: `https` on a listed host at the
 * default port, no credentials, no IP literal; only a listed loopback host may use `http` and
 * any port. Resolved addresses are checked again when sending (`delivery.ts`).
 */
export function allowedEndpoint(endpoint: string, hosts: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw notAllowed('not a URL');
  }
  if (url.username || url.password) throw notAllowed('credentials in the URL');
  const host = url.hostname;
  if (isListedLoopback(host, hosts)) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw notAllowed('not http(s)');
    return url;
  }
  if (url.protocol !== 'https:') throw notAllowed('not https');
  if (url.port !== '') throw notAllowed('not the default port');
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) throw notAllowed('an IP address');
  if (!hosts.some((entry) => matches(host, entry))) throw notAllowed('host not allowed');
  return url;
}
