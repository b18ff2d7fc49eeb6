import type { IncomingMessage } from 'node:http';
import type { Context } from '@campus/api';
import type { StatementObserver } from '@campus/core/db';
import type { RequestHandler } from 'express';
import type { Config } from '../config';
import type { Transport } from '../http/context';

/** The host's trace hooks (docs/operations.md "Traces"); absent when tracing is off. */
export interface Tracing {
  /** Opens the request's span (a child of the caller's `traceparent`), ended with the response. */
  requests: RequestHandler;
  /** `ctx.traceCall` for one request: a span per procedure call, below the request's. */
  procedures(req: IncomingMessage, transport: Transport): NonNullable<Context['traceCall']>;
  /** A span per SQL statement sent (its operation keyword, never its values), ended with it. */
  sql: StatementObserver;
  /** Exports what is still buffered. */
  shutdown(): Promise<void>;
}

/**
 * Tracing when OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set. Without
 * them, nothing of OpenTelemetry is loaded and every call site is one `undefined` check.
 */
export async function startTracing(config: Config): Promise<Tracing | undefined> {
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT && !config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
    return undefined;
  const { openTracing } = await import('./sdk');
  return openTracing(config);
}
