import { createServer, type RequestListener, type Server } from 'node:http';
import { clientKey } from '../rate-limit/middleware';

/** How long a client may take over its request, and how many connections one address may hold. */
export interface ConnectionBounds {
  /** The request line and headers must arrive within this (Node's `headersTimeout`). */
  headersTimeoutMs: number;
  /** The whole request, body included, within this (Node's `requestTimeout`; not the answer). */
  requestTimeoutMs: number;
  /** Open connections from one address (IPv6: per /64), counted by this process. */
  connectionsPerAddress: number;
  /** Addresses not bounded: a trusted proxy brings many clients on its connections. */
  exempt?: (address: string) => boolean;
}

/**
 * The HTTP server, bounding a slow or greedy client (docs/operations.md, "Bounds per connection
 * and address"): a request whose headers or body trickle in is answered 408 and closed (checked
 * every second); a connection past its address's bound is closed at once, before any byte is
 * read. Each live stream holds a connection, so this bounds the streams of an address too.
 */
export function boundedServer(handler: RequestListener, bounds: ConnectionBounds): Server {
  const server = createServer(
    {
      headersTimeout: bounds.headersTimeoutMs,
      requestTimeout: bounds.requestTimeoutMs,
      connectionsCheckingInterval: 1000,
    },
    handler,
  );
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress;
    if (!address || bounds.exempt?.(address)) return;
    const key = clientKey(address);
    const count = open.get(key) ?? 0;
    if (count >= bounds.connectionsPerAddress) {
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
  return server;
}
