import type { Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

/** What an event stream's client is told to wait before reconnecting (to another process). */
const STREAM_RETRY_MS = 1000;

const isEventStream = (res: ServerResponse) =>
  String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');

/**
 * The orderly stop of one process, in the order a load balancer needs:
 * 1. `/ready` answers 503 (`notReady()` turns true) for `delayMs` while requests are still
 *    served, so the balancer stops sending new ones at its next probe;
 * 2. the listener closes; every answer says `Connection: close`; idle keep-alive sockets close;
 * 3. open event streams end with a `retry:` hint (their clients reconnect elsewhere, with
 *    Last-Event-ID);
 * 4. requests in flight finish (up to `drainMs`, then their sockets are cut);
 * 5. `stopWork` runs (the job queue, the bus, the database), and the caller exits.
 */
export function orderlyShutdown(
  server: Server,
  options: {
    delayMs: number;
    drainMs: number;
    /** Resolves when no handler is running (handlers may outlive their client). */
    idle: () => Promise<void>;
    stopWork: () => Promise<void>;
    logger: Logger;
  },
) {
  let draining = false;
  let closing = false;
  // Open responses, so that the streams (which never finish by themselves) can be ended.
  const open = new Set<ServerResponse>();
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (closing) res.setHeader('Connection', 'close');
    open.add(res);
    res.on('close', () => open.delete(res));
  });

  /** `pause: false` (Ctrl-C in a terminal, SIGINT) skips the readiness pause. */
  async function shutdown({ pause = true }: { pause?: boolean } = {}) {
    draining = true;
    const delayMs = pause ? options.delayMs : 0;
    options.logger.info({ delayMs }, 'shutdown: not ready, still serving');
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    closing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const res of open) if (isEventStream(res)) endStream(res);
    server.closeIdleConnections();
    const cut = setTimeout(() => server.closeAllConnections(), options.drainMs);
    await Promise.race([
      Promise.all([closed, options.idle()]),
      new Promise((resolve) => setTimeout(resolve, options.drainMs + 500)),
    ]);
    clearTimeout(cut);
    await options.stopWork();
  }

  return {
    /** True from the moment shutdown starts: `/ready` answers 503. */
    notReady: () => draining,
    shutdown,
  };
}

/** Tells an event stream's client when to come back, then ends the stream. */
function endStream(res: ServerResponse) {
  if (res.writableEnded || res.destroyed) return;
  res.write(`retry: ${STREAM_RETRY_MS}\n\n`, () => res.destroy());
}
