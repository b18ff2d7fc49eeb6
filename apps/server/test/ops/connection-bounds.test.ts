import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { boundedServer } from '../../src/http/connections';
import { onTestApp, type TestApp } from '../support/app';

/**
 * Bounds per connection and address (docs/operations.md): a client that trickles its headers is
 * answered 408 and closed; an address past its connection bound is closed before it is served,
 * and served again once one of its connections closed; a trusted proxy is not bounded.
 */

let t: TestApp;
onTestApp((app) => (t = app));
const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

/**
 * A bounded server. `quickTimeouts`: headers must arrive within 1 s (the 408 test); otherwise the
 * timeouts are long, since an idle connection held by a test is answered 408 once they pass (on a
 * loaded machine a held connection could close before the test reached its bound).
 */
async function listen(options: {
  perAddress: number;
  exempt?: (address: string) => boolean;
  quickTimeouts?: boolean;
}) {
  const server = boundedServer(t.app, {
    headersTimeoutMs: options.quickTimeouts ? 1000 : 60_000,
    requestTimeoutMs: options.quickTimeouts ? 2000 : 120_000,
    connectionsPerAddress: options.perAddress,
    ...(options.exempt ? { exempt: options.exempt } : {}),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

/** A raw connection; `answer` resolves with all it received once the server closed it. */
async function open(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => {});
  const answer = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return { socket, answer };
}

const healthOver = async (port: number) =>
  (await fetch(`http://127.0.0.1:${port}/health`, { headers: { connection: 'close' } })).status;

describe('bounds per connection and address', () => {
  it('answers 408 and closes a request whose headers never finish', async () => {
    const port = await listen({ perAddress: 100, quickTimeouts: true });
    const slow = await open(port);
    slow.socket.write('GET /health HTTP/1.1\r\nHost: campus.test\r\nX-Slow: 1\r\n');
    expect(await slow.answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes the connection past the bound of its address, and serves it once one closed', async () => {
    const port = await listen({ perAddress: 3 });
    const held = await Promise.all([open(port), open(port), open(port)]);
    const extra = await open(port);
    extra.socket.write('GET /health HTTP/1.1\r\nHost: campus.test\r\n\r\n');
    expect(await extra.answer).toBe('');
    held[0]!.socket.destroy();
    await held[0]!.answer;
    expect(await healthOver(port)).toBe(200);
    for (const connection of held) connection.socket.destroy();
  });

  it('does not bound a trusted proxy', async () => {
    const port = await listen({ perAddress: 2, exempt: () => true });
    const held = await Promise.all([open(port), open(port), open(port)]);
    expect(await healthOver(port)).toBe(200);
    for (const connection of held) connection.socket.destroy();
  });
});
