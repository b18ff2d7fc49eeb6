import type { Reason } from '@campus/core';
import type { OpenAPIObject } from 'trpc-to-openapi';
import type { Meta, ReasonStatus } from './trpc';

type Operation = NonNullable<NonNullable<OpenAPIObject['paths']>[string]['get']>;
type Responses = NonNullable<Operation['responses']>;
type Components = NonNullable<OpenAPIObject['components']>;

const integer = { type: 'integer', minimum: 0 } as const;

/** The response headers and the request header the conventions use (docs/contract/protocol.md). */
export const conventionComponents: Pick<Components, 'headers' | 'parameters'> = {
  headers: {
    RequestId: {
      description:
        'Names this request in the server log: the `X-Request-Id` the client sent (1-128 of `A-Za-z0-9_.:-`), else a new UUID',
      required: true,
      schema: { type: 'string', pattern: '^[\\w.:-]{1,128}$' },
    },
    RetryAfter: { description: 'Seconds to wait before retrying', required: true, schema: integer },
    RateLimitLimit: {
      description: 'Attempts allowed in the window (IETF RateLimit headers)',
      schema: integer,
    },
    RateLimitRemaining: { description: 'Attempts left in the window', schema: integer },
    RateLimitReset: { description: 'Seconds until the window ends', schema: integer },
    Location: {
      description: 'Path of the created resource',
      required: true,
      schema: { type: 'string' },
    },
    IdempotentReplayed: {
      description:
        '`true` when this is the stored answer of an earlier request with the same Idempotency-Key',
      schema: { type: 'string', enum: ['true'] },
    },
    ETag: {
      description: 'Strong validator of this representation',
      required: true,
      schema: { type: 'string' },
    },
    CacheControl: {
      description: 'Caching of this answer',
      required: true,
      schema: { type: 'string' },
    },
    WWWAuthenticate: {
      description: 'The scheme to authenticate with: `Bearer`',
      required: true,
      schema: { type: 'string', pattern: '^Bearer' },
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
const errorRef = { $ref: '#/components/schemas/Error' };
const errorContent = { 'application/json': { schema: errorRef } };

/** The reasons of a kind of procedure, beside those it declares (`RoutePolicy.reasons`). */
const signedInReasons: Partial<Record<ReasonStatus, readonly Reason[]>> = {
  401: ['TOKEN_INVALID', 'TOKEN_EXPIRED', 'ACCOUNT_NOT_ACTIVE'],
};
const adminReasons: Partial<Record<ReasonStatus, readonly Reason[]>> = {
  ...signedInReasons,
  403: ['ADMIN_REQUIRED'],
};
const idempotentCreateReasons: Partial<Record<ReasonStatus, readonly Reason[]>> = {
  409: ['IDEMPOTENCY_KEY_IN_USE'],
  422: ['IDEMPOTENCY_KEY_REUSED'],
};

const unavailableWrite: readonly Reason[] = ['DATABASE_UNAVAILABLE', 'OUTCOME_UNKNOWN'];

/** Whether a REST POST creates with an `Idempotency-Key` (docs/contract/protocol.md). */
export const takesIdempotencyKey = (meta: Meta | undefined) =>
  meta?.successStatus === 201 && meta.openapi?.protect !== false;

/**
 * Every `reason` an operation's failure with `status` can carry: the procedure's own
 * (`RoutePolicy.reasons`), those of its kind, and RATE_LIMITED on 429 (every request counts
 * against the global ceiling). Sorted; empty when that status carries none.
 */
export function reasonsOf(meta: Meta | undefined, status: number): Reason[] {
  const sources: Array<Partial<Record<ReasonStatus, readonly Reason[]>> | undefined> = [
    meta?.reasons,
    meta?.access === 'admin' ? adminReasons : meta?.access === 'user' ? signedInReasons : undefined,
    takesIdempotencyKey(meta) ? idempotentCreateReasons : undefined,
    { 429: ['RATE_LIMITED'] },
    // A static list never waits on the database; a write may be cut after it was sent.
    meta?.staticList
      ? undefined
      : { 503: meta?.openapi?.method === 'GET' ? ['DATABASE_UNAVAILABLE'] : unavailableWrite },
  ];
  const reasons = new Set<Reason>();
  for (const source of sources)
    for (const reason of source?.[status as ReasonStatus] ?? []) reasons.add(reason);
  return [...reasons].sort();
}

/**
 * The body of an error response: the Error schema with `reason` closed to the ones this
 * operation can answer with this status, or absent when there are none.
 */
export function errorSchema(reasons: readonly Reason[]) {
  return {
    allOf: [
      errorRef,
      reasons.length
        ? { properties: { reason: { type: 'string', enum: [...reasons] } } }
        : { properties: { reason: { not: {}, description: 'Never sent with this status' } } },
    ],
  };
}
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
    description: existing?.description
      ? `${existing.description}; or: ${description.charAt(0).toLowerCase()}${description.slice(1)}`
      : description,
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
  // A static list is served from memory: it never waits on the database.
  if (!meta?.staticList)
    addError(
      responses,
      '503',
      'The database is unavailable; retry later (`reason` says whether anything was done)',
      {
        'Retry-After': header('RetryAfter'),
      },
    );
  // Any request that reaches the REST adapter has its body parsed, whatever the method (a
  // DELETE with a 200 kB JSON body is a 413); the static lists are answered before that.
  if (!meta?.staticList) {
    addError(responses, '413', 'Body larger than 100 kB');
    addError(
      responses,
      '415',
      ['post', 'patch', 'put'].includes(method)
        ? 'Body is not JSON (UTF-8), or its Content-Encoding is not gzip, deflate or br'
        : 'A JSON body whose Content-Encoding is not gzip, deflate or br',
    );
  }
  if (responses['401'])
    addHeaders(responses, '401', { 'WWW-Authenticate': header('WWWAuthenticate') });
  if (meta?.rateLimit) {
    for (const code of Object.keys(responses))
      if (code !== '429') addHeaders(responses, code, rateLimitHeaders);
  }
  if (meta?.location) addHeaders(responses, success, { Location: header('Location') });
  if (takesIdempotencyKey(meta)) {
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
  finishResponses(responses, meta);
}

/**
 * What every answer has: `X-Request-Id` on each, and each JSON error body with `reason` closed to
 * what the operation answers with that status.
 */
export function finishResponses(responses: Responses, meta: Meta | undefined) {
  for (const code of Object.keys(responses))
    addHeaders(responses, code, { 'X-Request-Id': header('RequestId') });
  for (const [code, response] of Object.entries(responses)) {
    const json = (response as { content?: Record<string, unknown> }).content?.['application/json'];
    if (Number(code) < 400 || !json) continue;
    responses[code] = {
      ...response,
      content: { 'application/json': { schema: errorSchema(reasonsOf(meta, Number(code))) } },
    };
  }
}
