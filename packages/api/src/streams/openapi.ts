import {
  feedStreamEvent,
  matchStreamEvent,
  notificationStreamEvent,
  postStreamEvent,
} from '@campus/core';
import type { OpenAPIObject } from 'trpc-to-openapi';
import { createDocument } from 'zod-openapi';
import { restRoutes } from '../routes';

/** The event each stream sends, by tRPC path. */
const streamEvents = {
  'streams.notifications': notificationStreamEvent,
  'streams.match': matchStreamEvent,
  'streams.post': postStreamEvent,
  'streams.feed': feedStreamEvent,
} as const;

const heartbeat =
  'Every event is `data: <JSON>` (with `id:` where the stream is resumable); a comment line (`: ping`) is ' +
  'sent every 15 s while nothing happens. Authenticate with the `Authorization` header, never a token ' +
  'in the URL (browsers: an EventSource that sends headers, e.g. over fetch).';

/**
 * The live streams as OpenAPI operations (trpc-to-openapi refuses subscriptions): a 200
 * `text/event-stream` whose events are the stream's schema, plus the route's documented errors.
 */
export function streamPaths(): {
  paths: NonNullable<OpenAPIObject['paths']>;
  /** The named schemas the events refer to (`$ref`), for the document's components. */
  schemas: Record<string, unknown>;
} {
  // Rendered as responses (output), so shared shapes get the names the rest of the document uses.
  const rendered = createDocument({
    openapi: '3.1.0',
    info: { title: '', version: '' },
    paths: Object.fromEntries(
      Object.entries(streamEvents).map(([path, schema]) => [
        `/${path}`,
        {
          get: {
            responses: { 200: { description: '', content: { 'application/json': { schema } } } },
          },
        },
      ]),
    ),
  });
  const eventSchema = (path: string) =>
    rendered.paths![`/${path}`]!.get!.responses![200]!.content!['application/json']!.schema;
  const paths: NonNullable<OpenAPIObject['paths']> = {};
  for (const route of restRoutes.filter((r) => r.meta.sse)) {
    const openapi = route.meta.openapi!;
    const template = route.rest.template;
    const params = route.rest.segments.flatMap((s) => ('param' in s ? [s.param] : []));
    const lastEventId = route.path === 'streams.notifications';
    const errors = (openapi.errorResponses ?? {}) as Record<string, string>;
    paths[template] = {
      get: {
        operationId: openapi.operationId ?? route.path.replace('.', '-'),
        summary: openapi.summary,
        description: `${openapi.description ?? ''}\n\n${heartbeat}`,
        tags: openapi.tags,
        security: [{ bearerAuth: [] }],
        parameters: [
          ...params.map((name) => ({
            name,
            in: 'path' as const,
            required: true,
            schema: { type: 'string' as const, format: 'uuid' },
          })),
          ...(lastEventId
            ? [
                {
                  name: 'Last-Event-ID',
                  in: 'header' as const,
                  required: false,
                  description: 'The `id` of the last event received: the stream resumes after it',
                  schema: { type: 'string' as const, pattern: '^\\d{1,18}$' },
                },
              ]
            : []),
        ],
        responses: {
          200: {
            description: 'An event stream (`text/event-stream`), each `data:` one of these',
            content: {
              'text/event-stream': {
                schema: eventSchema(route.path) as Record<string, unknown>,
              },
            },
          },
          ...Object.fromEntries(
            Object.entries(errors).map(([code, description]) => [code, { description }]),
          ),
        },
      },
    };
  }
  return { paths, schemas: (rendered.components?.schemas ?? {}) as Record<string, unknown> };
}
