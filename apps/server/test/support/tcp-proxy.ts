import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of a server (PostgreSQL, Redis), for fault tests: `blackHole()` keeps
 * every connection open and accepts new ones but forwards nothing in either direction (a
 * network partition: no refusal, no answer); `restore()` drops those connections and forwards
 * again; `close()` refuses new connections and drops the open ones (a cut), which `reopen()`
 * ends on the same port.
 */
export async function tcpProxy(target: { host: string; port: number }) {
  const pairs = new Set<[Socket, Socket]>();
  const held = new Set<Socket>();
  let holed = false;
  const server: Server = createServer((client) => {
    client.on('error', () => client.destroy());
    if (holed) {
      held.add(client);
      client.on('close', () => held.delete(client));
      client.resume(); // read and drop
      return;
    }
    const upstream = connect(target.port, target.host);
    upstream.on('error', () => upstream.destroy());
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', drop);
    upstream.on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    blackHole() {
      holed = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        // Keep reading both sides so nothing pushes back, and deliver none of it.
        client.removeAllListeners('data');
        upstream.removeAllListeners('data');
        client.on('data', () => {});
        upstream.on('data', () => {});
      }
    },
    restore() {
      holed = false;
      for (const socket of held) socket.destroy();
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
    },
    async close() {
      this.restore();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    reopen: () => listen(port),
  };
}
