import type { OpenAPIObject } from 'trpc-to-openapi';
import type { Meta } from './trpc';

type Operation = NonNullable<NonNullable<OpenAPIObject['paths']>[string]['get']>;
type Responses = NonNullable<Operation['responses']>;
type Components = NonNullable<OpenAPIObject['components']>;

const integer = { type: 'integer', minimum: 0 } as const;

/** The response headers and the request header the conventions use (extensions.md §F). */
export const conventionComponents: Pick<Components, 'headers' | 'parameters'> = {
  headers: {
    RetryAfter: { description: 'Seconds to wait before retrying', schema: integer },
    RateLimitLimit: {
      description: 'Attempts allowed in the window (IETF RateLimit headers)',
      schema: integer,
    },
    RateLimitRemaining: { description: 'Attempts left in the window', schema: integer },
    RateLimitReset: { description: 'Seconds until the window ends', schema: integer },
    Location: { description: 'Path of the created resource', schema: { type: 'string' } },
    IdempotentReplayed: {
      description:
        '`true` when this is the stored answer of an earlier request with the same Idempotency-Key',
      schema: { type: 'string', enum: ['true'] },
    },
    ETag: { description: 'Strong validator of this representation', schema: { type: 'string' } },
    CacheControl: { description: 'Caching of this answer', schema: { type: 'string' } },
    WWWAuthenticate: {
      description: 'The scheme to authenticate with: `Bearer`',
      schema: { type: 'string' },
    },
  },
  parameters: {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Any 1-255 visible ASCII characters, new for each intended creation (a UUID). The same key with the ' +
        'same request within 24 h answers the first answer again and creates nothing.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    },
    IfNoneMatch: {
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'An ETag of an earlier answer: 304 with no body when it still matches',
      schema: { type: 'string' },
    },
  },
};

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const rateLimitHeaders = {
  'RateLimit-Limit': header('RateLimitLimit'),
  'RateLimit-Remaining': header('RateLimitRemaining'),
  'RateLimit-Reset': header('RateLimitReset'),
};

function addHeaders(responses: Responses, code: string, headers: Record<string, unknown>) {
  const response = responses[code] as { headers?: Record<string, unknown> } | undefined;
  if (response) response.headers = { ...response.headers, ...headers };
}

function addError(
  responses: Responses,
  code: string,
  description: string,
  headers: Record<string, unknown> = {},
) {
  const existing = responses[code] as { description?: string } | undefined;
  responses[code] = {
    description: existing?.description ?? description,
    content: errorContent,
    ...(Object.keys(headers).length ? { headers } : {}),
  };
}

/**
 * Every status an operation can answer besides its own (429, 503, and 413/415 with a body), the
 * response headers the host sends, and the headers a client may send, from the route's meta.
 */
export function documentConventions(operation: Operation, method: string, meta: Meta | undefined) {
  const responses = operation.responses!;
  const success = String(meta?.successStatus ?? 200);
  addError(responses, '429', 'Too many requests from this client (`RATE_LIMITED`)', {
    'Retry-After': header('RetryAfter'),
    ...rateLimitHeaders,
  });
  addError(responses, '503', 'The database is unavailable (`SERVICE_UNAVAILABLE`); retry later', {
    'Retry-After': header('RetryAfter'),
  });
  if (method === 'post' || method === 'patch' || method === 'put') {
    addError(responses, '413', 'Body larger than 100 kB');
    addError(
      responses,
      '415',
      'Body is not JSON (UTF-8), or its Content-Encoding is not gzip, deflate or br',
    );
  }
  if (responses['401'])
    addHeaders(responses, '401', { 'WWW-Authenticate': header('WWWAuthenticate') });
  if (meta?.rateLimit) {
    for (const code of Object.keys(responses))
      if (code !== '429') addHeaders(responses, code, rateLimitHeaders);
  }
  if (meta?.location) addHeaders(responses, success, { Location: header('Location') });
  if (meta?.successStatus === 201 && meta.openapi?.protect !== false) {
    operation.parameters = [
      ...(operation.parameters ?? []),
      { $ref: '#/components/parameters/IdempotencyKey' },
    ];
    addHeaders(responses, success, { 'Idempotent-Replayed': header('IdempotentReplayed') });
    addError(
      responses,
      '409',
      'The first request with this Idempotency-Key is still running (`IDEMPOTENCY_KEY_IN_USE`)',
    );
    addError(
      responses,
      '422',
      'This Idempotency-Key was used with another request (`IDEMPOTENCY_KEY_REUSED`)',
    );
  }
  if (meta?.staticList) {
    operation.parameters = [
      ...(operation.parameters ?? []),
      { $ref: '#/components/parameters/IfNoneMatch' },
    ];
    addHeaders(responses, success, {
      ETag: header('ETag'),
      'Cache-Control': header('CacheControl'),
    });
    responses['304'] = {
      description: 'Not modified: the If-None-Match ETag still names this list',
      headers: { ETag: header('ETag') },
    };
  }
}
