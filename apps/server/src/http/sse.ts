import type { ServerResponse } from 'node:http';
import { SSE, toHttpError } from '@campus/api';
import { isTrackedEnvelope } from '@trpc/server';

/**
 * The one REST writer of live streams: a subscription's events as `text/event-stream`. Tracked
 * events (`tracked(id, data)`) carry `id:`, so a browser's EventSource resumes with
 * `Last-Event-ID`; a failure after the start is sent as an `error` event, then the stream ends.
 * The caller aborts `controller` when the client goes, which ends the generator (no leak).
 */
export async function writeEventStream(
  res: ServerResponse,
  events: AsyncIterable<unknown>,
  controller: AbortController,
  heartbeatMs = SSE.heartbeatMs,
): Promise<void> {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.socket?.setNoDelay(true);
  const write = (text: string) => {
    if (!res.writableEnded && !res.destroyed) res.write(text);
  };
  write(`retry: ${SSE.retryMs}\n\n`);
  const heartbeat = setInterval(() => write(': ping\n\n'), heartbeatMs);
  try {
    for await (const value of events) {
      if (controller.signal.aborted) break;
      if (isTrackedEnvelope(value)) {
        write(`id: ${value[0]}\ndata: ${JSON.stringify(value[1])}\n\n`);
      } else {
        write(`data: ${JSON.stringify(value)}\n\n`);
      }
    }
  } catch (error) {
    write(`event: error\ndata: ${JSON.stringify(toHttpError(error).body)}\n\n`);
  } finally {
    clearInterval(heartbeat);
    controller.abort();
    if (!res.writableEnded) res.end();
  }
}
