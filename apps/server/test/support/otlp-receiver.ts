import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

/** One received span, whichever protocol carried it. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** Nanoseconds since the epoch (as a double: to about 0.25 µs). */
  startTimeUnixNano: number;
  endTimeUnixNano: number;
  attributes: Record<string, unknown>;
}

/**
 * The fields of OTLP's ExportTraceServiceRequest these tests read, with the field numbers of
 * opentelemetry-proto (collector/trace/v1 and trace/v1): unknown fields are skipped on decoding.
 */
const OTLP_SUBSET = `
syntax = "proto3";
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { repeated Span spans = 2; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; bytes parent_span_id = 4; string name = 5;
  fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9;
}
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; }
`;
const requestType = protobuf
  .parse(OTLP_SUBSET, { keepCase: false })
  .root.lookupType('ExportTraceServiceRequest');

type KeyValue = { key: string; value?: Record<string, unknown> };
type Decoded = {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      spans?: (Omit<ReceivedSpan, 'attributes' | `${string}UnixNano`> & {
        attributes?: KeyValue[];
        startTimeUnixNano: number | string;
        endTimeUnixNano: number | string;
      })[];
    }[];
  }[];
};

const attributesOf = (list: KeyValue[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value ?? {})[0]]));

function decode(contentType: string, body: Buffer): Decoded {
  if (contentType.startsWith('application/json')) return JSON.parse(body.toString()) as Decoded;
  const message = requestType.decode(body);
  // Ids as hex, as OTLP/JSON writes them; 64-bit integers as numbers.
  return requestType.toObject(message, { bytes: String, longs: Number }) as Decoded;
}

const hex = (id: string | undefined) =>
  !id ? '' : /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex');

/** An OTLP/HTTP receiver (POST /v1/traces) on a port of the OS's choosing. */
export async function startOtlpReceiver() {
  const bodies: { contentType: string; raw: Buffer }[] = [];
  const resources: Record<string, unknown>[] = [];
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') return res.writeHead(404).end();
      const contentType = req.headers['content-type'] ?? '';
      const raw = Buffer.concat(chunks);
      bodies.push({ contentType, raw });
      for (const group of decode(contentType, raw).resourceSpans ?? []) {
        resources.push(attributesOf(group.resource?.attributes));
        for (const span of (group.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []))
          spans.push({
            traceId: hex(span.traceId),
            spanId: hex(span.spanId),
            parentSpanId: hex(span.parentSpanId),
            name: span.name,
            startTimeUnixNano: Number(span.startTimeUnixNano),
            endTimeUnixNano: Number(span.endTimeUnixNano),
            attributes: attributesOf(span.attributes),
          });
      }
      res
        .writeHead(200, { 'content-type': contentType })
        .end(contentType.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    resources,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
