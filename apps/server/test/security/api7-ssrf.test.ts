import { describe, expect, it } from 'vitest';
import { productionDependencies, productionSources } from './inventory';
import { documentedOperations } from './support';

/** HTTP and socket clients a request handler could be made to aim somewhere. */
const HTTP_CLIENTS = [
  'axios',
  'got',
  'node-fetch',
  'undici',
  'superagent',
  'request',
  'needle',
  'ky',
  'cross-fetch',
  'isomorphic-fetch',
  'phin',
  'ws',
];
/** Outbound network calls in source: fetch, node:http(s)/net/tls/dns/dgram as values (type imports are the server side). */
const OUTBOUND =
  /\bfetch\s*\(|\bnew\s+WebSocket\b|^import\s+(?!type\b)[^;]*from\s+['"](node:)?(https?|net|tls|dns|dgram|http2)['"]|require\(['"](node:)?(https?|net|tls|dns|dgram|http2)['"]\)/m;

/**
 * A source without its imports of node:http that bring in `createServer` and types only: the
 * listening side, which opens no connection.
 */
const withoutServerImports = (text: string) =>
  text.replace(
    /^import\s*\{([^}]*)\}\s*from\s*['"](?:node:)?http['"];?$/gm,
    (line, names: string) =>
      names
        .split(',')
        .map((name) => name.trim())
        .every((name) => !name || name === 'createServer' || name.startsWith('type '))
        ? ''
        : line,
  );

describe('API7:2023 Server Side Request Forgery', () => {
  // The one outbound request from user input is Web Push's: the subscription's endpoint, allowed
  // only on the push services' hosts (docs/contract/push.md; its refusals are tested in
  // test/push/api.test.ts). Otherwise the service talks to its configured database, Redis, SMTP
  // and object storage only. These checks keep that claim true.
  it('no input but the push endpoint is a URL, no production dependency is an HTTP client, and no shipped source opens an outbound connection', () => {
    const inputs = documentedOperations.flatMap((op) => {
      const body = (
        op.operation.requestBody as
          { content?: { 'application/json'?: { schema?: { properties?: object } } } } | undefined
      )?.content?.['application/json']?.schema?.properties;
      const params = ((op.operation.parameters ?? []) as { name: string; schema?: object }[]).map(
        (p) => [p.name, p.schema] as const,
      );
      return [...Object.entries(body ?? {}), ...params].map(([name, schema]) => ({
        op: op.key,
        name,
        schema: JSON.stringify(schema),
      }));
    });
    expect(inputs.length).toBeGreaterThan(50);
    const urlLike = inputs.filter(
      (i) =>
        /url|uri|link|callback|webhook|host|endpoint|avatar|image/i.test(i.name) ||
        /"format":"(uri|url|hostname|ipv4|ipv6)"/.test(i.schema),
    );
    expect(urlLike.map((i) => `${i.op} ${i.name}`)).toEqual([
      'POST /notifications/push/subscriptions endpoint',
      'DELETE /notifications/push/subscriptions endpoint',
    ]);

    expect(productionDependencies.filter((name) => HTTP_CLIENTS.includes(name))).toEqual([]);

    const sources = productionSources();
    expect(sources.length).toBeGreaterThan(30);
    // Web Push alone: the endpoint's addresses are resolved and checked, and the POST follows no
    // redirect (docs/contract/push.md).
    expect(
      sources.filter((s) => OUTBOUND.test(withoutServerImports(s.text))).map((s) => s.file),
    ).toEqual([
      'packages/core/src/notifications/push/delivery.ts',
      'packages/core/src/notifications/push/endpoint.ts',
    ]);
  });
});
