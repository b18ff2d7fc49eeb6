import type { IncomingMessage } from 'node:http';
import type { Context as TraceContext, Span } from '@opentelemetry/api';
import type { Config } from '../config';
import type { Tracing } from './index';

/** The request's span context, for the procedure spans below it (set by `requests`). */
const requestContexts = new WeakMap<IncomingMessage, TraceContext>();

/** The first keyword of a statement (`select`, `insert`, `with`, …): never its values. */
export function sqlOperation(query: string): string {
  const keyword = /^\s*\(?\s*([a-z]+)/i.exec(query)?.[1];
  return keyword ? keyword.toUpperCase() : 'SQL';
}

/**
 * The SDK's packages, imported only when tracing is on: a static import here would be hoisted
 * into the bundle's top level (dist/main.js) and loaded by every server.
 */
const loadSdk = () =>
  Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/semantic-conventions'),
  ]);

/** The SDK: resource (OTEL_SERVICE_NAME), batching (OTEL_BSP_SCHEDULE_DELAY), OTLP export. */
export async function openTracing(config: Config): Promise<Tracing> {
  const [api, { AsyncLocalStorageContextManager }, core, json, proto, resources, sdk, semconv] =
    await loadSdk();
  const { context, propagation, trace, SpanKind, SpanStatusCode } = api;
  // The OTLP default is http/protobuf; both exporters read OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT/HEADERS.
  const exporter =
    config.OTEL_EXPORTER_OTLP_PROTOCOL === 'http/json'
      ? new json.OTLPTraceExporter()
      : new proto.OTLPTraceExporter();
  const resource = resources
    .resourceFromAttributes({ [semconv.ATTR_SERVICE_NAME]: 'campus-server' })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new sdk.TracerProvider({
    resource,
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: config.OTEL_BSP_SCHEDULE_DELAY,
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  const tracer = provider.getTracer('campus-server');

  const endWith = (span: Span, error: unknown) => {
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
    span.end();
  };

  return {
    requests: (req, res, next) => {
      const parent = propagation.extract(context.active(), req.headers);
      const span = tracer.startSpan(req.method, { kind: SpanKind.SERVER }, parent);
      span.setAttribute(semconv.ATTR_HTTP_REQUEST_METHOD, req.method);
      const active = trace.setSpan(parent, span);
      requestContexts.set(req, active);
      res.on('finish', () => {
        // The route label (metrics.ts): bounded, never the path's values or its query string.
        const route = req.routeLabel ?? 'unmatched';
        span.updateName(`${req.method} ${route}`);
        span.setAttribute(semconv.ATTR_HTTP_ROUTE, route);
        span.setAttribute(semconv.ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
      context.with(active, next);
    },
    procedures: (req, transport) => (path, run) => {
      const parent = requestContexts.get(req) ?? context.active();
      const span = tracer.startSpan(
        path,
        { attributes: { 'rpc.system': 'trpc', 'rpc.method': path, 'campus.transport': transport } },
        parent,
      );
      return context.with(trace.setSpan(parent, span), run).then(
        (result) => {
          span.end();
          return result;
        },
        (error: unknown) => {
          endWith(span, error);
          throw error;
        },
      );
    },
    // From the statement's sending to its answer (PGlite: a mark as drizzle sends it).
    sql: (text) => {
      const operation = sqlOperation(text);
      const span = tracer.startSpan(operation, {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation },
      });
      return (error) => (error === undefined ? span.end() : endWith(span, error));
    },
    shutdown: () => provider.shutdown(),
  };
}
