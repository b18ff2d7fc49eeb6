import {
  type Actor,
  type AppError,
  type PrecomputedResponse,
  type Reason,
  type ReceivedUpload,
  type Services,
  LimitError,
  forbidden,
  isDatabaseUnavailable,
  isSiteAdmin,
  mayHaveBeenApplied,
  unauthorized,
  withCancellingDeadline,
} from '@campus/core';
import { getTRPCErrorFromUnknown, initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { databaseUnavailable, outcomeUnknown, toHttpError, toTRPCError } from './errors';
import { claimIdempotencyKey } from './idempotency';
import { takesIdempotencyKey } from './openapi-conventions';

/**
 * The limits a call can be counted against (docs/contract/protocol.md, docs/operations.md):
 * `global` and `auth` per client address; `account` per account whose password is checked;
 * `refresh` per refresh token presented.
 */
export type RateLimitClass = 'auth' | 'global' | KeyedLimit;
/** The limits counted under a key the procedure gives (`countKeyed`), not the address. */
export type KeyedLimit = 'account' | 'refresh';

/** A limiter's answer for one call, as the IETF RateLimit headers report it. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

/** Per-request context: the services (built once per process), the credentials and the host's hooks. */
export interface Context {
  services: Services;
  /** The `Authorization` header as sent, if any. */
  authorization: string | undefined;
  /** Marks a procedure call as running; the returned function marks it done (graceful shutdown). */
  track?: () => () => void;
  /**
   * Counts one call against a limit: under `key` when given (the keyed limits), else under the
   * caller's address. `undefined`: not limited here (limits off, a transport whose host already
   * counted it, or the store is unavailable).
   */
  rateLimit?: (limit: RateLimitClass, key?: string) => Promise<RateLimitDecision | undefined>;
  /**
   * Runs password work (scrypt) within the process's bound on it, counted under the caller's
   * address (503 `SERVER_BUSY` when full). Absent: runs at once.
   */
  passwordWork?: <T>(work: () => Promise<T>) => Promise<T>;
  /** Sets a response header (REST and /trpc alike). */
  setHeader?: (name: string, value: string) => void;
  /** A call that has not finished within this many ms is answered 503 (the database is not answering). */
  deadlineMs?: number;
  /** Whether the deadline calls the work back (core's `asyncContextIsCheap`). */
  deadlineCallsBackWork?: boolean;
  /**
   * Whether the database can be reached, as the process knows it (core's `databaseHealth`): while
   * down, a call is answered 503 at once; a call that found it unreachable makes it probe now.
   */
  database?: { up(): boolean; suspect(): void };
  /** The request's `Idempotency-Key`, REST and /trpc alike (claimed in `authedProcedure`). */
  idempotencyKey?: string;
  /** A multipart upload's `file` part, streamed to a temporary file by the host (`upload` routes). */
  upload?: ReceivedUpload;
  /** Counts a call refused by a limit (429), by the limit's name and the procedure (/metrics). */
  countRefusal?: (limit: string, procedure: string) => void;
  /** Runs one procedure call inside the host's trace span for it (absent: tracing off). */
  traceCall?: <T>(path: string, run: () => Promise<T>) => Promise<T>;
}

/**
 * What the host needs to know about a procedure, declared next to its input and output. Every
 * host-side concern (the REST adapter, the limiter, the static lists, metrics, OpenAPI) reads it
 * from the one route list (`routes.ts`); `routes.test.ts` fails when a procedure lacks it.
 */
export interface RoutePolicy {
  /**
   * The language of its error messages: English for the feed and matches (their fields are
   * English), Portuguese elsewhere (docs/contract/errors.md). Set once per domain (`domainProcedures`).
   */
  language: 'en' | 'pt';
  /**
   * `auth`: each call is one attempt against the per-address limit on the login class: login,
   * registration, the password checks of a signed-in user, the reset (the refresh counts per
   * token instead, in its procedure).
   */
  rateLimit?: 'auth';
  /** The REST success status; 200 unless said. */
  successStatus?: 201 | 202 | 204;
  /**
   * A DELETE whose input travels in a JSON body, not the query string (a password must not
   * reach a URL or a log): the REST adapter reads the body, the document shows a request body.
   */
  bodyOnDelete?: boolean;
  /**
   * With 201: the created resource's path, sent as `Location` over REST. `{input.x}` and
   * `{output.a.b}` are read from the call's input and answer, e.g. `/post/{output.id}`.
   */
  location?: string;
  /**
   * With 201: the answer's boolean field that says whether the call created something; `false`
   * answers 200 without `Location` (a create that is idempotent on a natural key, e.g. a push
   * subscription's endpoint).
   */
  createdFlag?: string;
  /**
   * A static list: the host answers its REST GET from this precomputed body (ETag, 304, Brotli or
   * gzip). It gets the path parameters; `undefined` (an unknown UF) → the procedure answers.
   */
  staticList?: (params: Record<string, string>) => PrecomputedResponse<unknown> | undefined;
  /**
   * Who may call it: any signed-in user, or ADMIN only; absent, anyone. Set by the procedure
   * builders (`authedProcedure`, `adminProcedure`), never by hand. The OpenAPI document reads it
   * for the 401 and 403 reasons every such procedure can answer.
   */
  access?: 'user' | 'admin';
  /**
   * The `reason`s its failures can carry, by REST status: the closed enum the OpenAPI document
   * gives `reason` in that response (and the response-validation test holds the server to).
   * Declare only the procedure's own; the document adds those of its kind: 401
   * TOKEN_INVALID/TOKEN_EXPIRED/ACCOUNT_NOT_ACTIVE (`access`), 403 ADMIN_REQUIRED (admin), 429
   * RATE_LIMITED (all), 409 IDEMPOTENCY_KEY_IN_USE and 422 IDEMPOTENCY_KEY_REUSED (REST creates).
   * A status not listed answers no `reason`. Every new domain (groups, notifications) declares
   * its reasons here, next to `errorResponses`, e.g. `reasons: { 409: ['ALREADY_MEMBER'] }`.
   */
  reasons?: Partial<Record<ReasonStatus, readonly Reason[]>>;
  /**
   * A live stream (a subscription): served over REST as `text/event-stream` by the host's SSE
   * writer, documented apart from trpc-to-openapi's generator (which refuses subscriptions).
   */
  sse?: boolean;
  /**
   * The REST success body is a document of this media type, not JSON: the procedure answers it as
   * a string (over /trpc, that string), the REST adapter sends it as is with this Content-Type,
   * and the OpenAPI document describes the 200 as this media type (the calendar files).
   */
  contentType?: 'text/calendar';
  /**
   * The input travels as `multipart/form-data` (docs/contract/media.md): the host streams the
   * `file` part to a temporary file (`ctx.upload`, 10 MB at most) and hands the text parts as the
   * input, over REST and /trpc (a `FormData` body) alike; the document shows that body.
   */
  upload?: boolean;
}

/** The statuses a `reason` can come with (packages/core/src/errors.ts). */
export type ReasonStatus = 400 | 401 | 403 | 404 | 409 | 422 | 429 | 503;

/** OpenAPI meta plus the route policy. */
export type Meta = OpenApiMeta<Partial<RoutePolicy>>;

/**
 * Live streams, REST (the host's SSE writer) and /trpc (tRPC's) alike: a comment line every
 * `heartbeatMs` keeps idle connections open through proxies; a browser's EventSource reconnects
 * `retryMs` after a drop (REST's `retry:` field); tRPC's client reconnects after
 * `reconnectAfterInactivityMs` of silence (docs/contract/protocol.md).
 */
export const SSE = { heartbeatMs: 15_000, retryMs: 2_000, reconnectAfterInactivityMs: 30_000 };

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    isDev: false,
    sse: {
      ping: { enabled: true, intervalMs: SSE.heartbeatMs },
      client: { reconnectAfterInactivityMs: SSE.reconnectAfterInactivityMs },
    },
    errorFormatter({ shape, error }) {
      const { body } = toHttpError(error);
      return {
        message: body.message,
        code: shape.code,
        data: {
          code: shape.data.code,
          httpStatus: shape.data.httpStatus,
          path: shape.data.path,
          appCode: body.code,
          ...(body.reason ? { reason: body.reason } : {}),
          ...(body.issues ? { issues: body.issues } : {}),
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** The IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers), and `Retry-After` on a refusal. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
    ...(decision.allowed ? {} : { 'Retry-After': String(decision.resetSeconds) }),
  };
}

/** 429 `RATE_LIMITED` from the limiter of `limit`. */
export const rateLimitedError = (limit: RateLimitClass) =>
  new LimitError(limit, 'Muitas requisições; tente novamente mais tarde');

/**
 * Per-call rate limits, before the input is even parsed: REST, a single /trpc call and each call
 * of a /trpc batch count one attempt each, so no batch or path spelling gets around them.
 */
async function checkRateLimits(ctx: Context, meta: Meta | undefined): Promise<void> {
  if (!ctx.rateLimit) return;
  const global = await ctx.rateLimit('global');
  if (global && !global.allowed) report(ctx, 'global', global);
  const own = meta?.rateLimit && (await ctx.rateLimit(meta.rateLimit));
  if (own) report(ctx, meta.rateLimit!, own);
}

function report(ctx: Context, limit: RateLimitClass, decision: RateLimitDecision) {
  for (const [name, value] of Object.entries(rateLimitHeaders(decision)))
    ctx.setHeader?.(name, value);
  if (!decision.allowed) throw rateLimitedError(limit);
}

/**
 * Counts one call under `key` against a keyed limit, once the input names what is counted (an
 * account, a refresh token): 429 `RATE_LIMITED` past it. Its headers are sent only on a refusal,
 * so they do not hide the per-address limit's.
 */
export async function countKeyed(ctx: Context, limit: KeyedLimit, key: string): Promise<void> {
  const decision = await ctx.rateLimit?.(limit, key);
  if (decision && !decision.allowed) report(ctx, limit, decision);
}

/**
 * The first layer of every procedure: counts the call while it runs (graceful shutdown), applies
 * its rate limits, answers 503 when it outlives the deadline (its database work called back first:
 * `withCancellingDeadline`) or the database is unavailable, and turns domain errors and input
 * validation failures into TRPCErrors with the matching code, in the procedure's language. One layer, not one per concern: each tRPC layer copies the call's
 * options and context, on every call.
 */
const callPolicy = t.middleware(async ({ ctx, meta, path, type, next }) => {
  if (ctx.database?.up() === false) throw unavailable(databaseUnavailable());
  const done = ctx.track?.();
  const call = () => checkRateLimits(ctx, meta).then(() => next());
  const { deadlineMs } = ctx;
  // The call counts as running until it settles, even when its answer was given up on.
  const running = () =>
    (ctx.traceCall ? ctx.traceCall(path, call) : call()).finally(() => done?.());
  let result: Awaited<ReturnType<typeof running>>;
  try {
    result = deadlineMs
      ? await withCancellingDeadline(running, deadlineMs, {
          callsBackWork: ctx.deadlineCallsBackWork ?? false,
        })
      : await running();
  } catch (error) {
    if (error instanceof LimitError) ctx.countRefusal?.(error.limit, path);
    if (!isDatabaseUnavailable(error))
      throw toTRPCError(getTRPCErrorFromUnknown(error), meta?.language ?? 'pt');
    ctx.database?.suspect();
    throw unavailable(
      type === 'mutation' && mayHaveBeenApplied(error)
        ? outcomeUnknown(error)
        : databaseUnavailable(error),
    );
  }
  if (!result.ok) throw toTRPCError(result.error, meta?.language ?? 'pt');
  return result;
});

const unavailable = (app: AppError) =>
  new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: app.message, cause: app });

export const publicProcedure = t.procedure.use(callPolicy);

export function bearerToken(header: string | undefined): string {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match) throw unauthorized('Token de acesso ausente', 'TOKEN_INVALID');
  return match[1]!;
}

/**
 * A valid access token of an existing, ATIVO user: `ctx.actor`, the one every service takes.
 *
 * The same layer claims a create's `Idempotency-Key` (idempotency.ts), over REST and /trpc
 * alike: the one rule of which calls take a key is `takesIdempotencyKey` (a signed-in create;
 * registration, which has no user yet, ignores the key). A key already answered gets that
 * answer, and nothing runs again. One layer, not two: every authenticated call passes it, and
 * each tRPC layer costs a context copy on the hottest reads.
 */
export const authedProcedure = publicProcedure
  .meta({ access: 'user' })
  .use(async ({ ctx, meta, path, getRawInput, next }) => {
    const actor: Actor = await ctx.services.auth.authenticate(bearerToken(ctx.authorization));
    const run = () => next({ ctx: { actor } });
    const key = ctx.idempotencyKey;
    if (key === undefined || !takesIdempotencyKey(meta)) return run();
    const claim = await claimIdempotencyKey(ctx.services, actor.id, key, path, await getRawInput());
    if (claim.kind === 'refused') throw claim.error;
    if (claim.kind === 'replay') {
      ctx.setHeader?.('Idempotent-Replayed', 'true');
      return replayed<Awaited<ReturnType<typeof run>>>(claim.body);
    }
    const result = await run();
    if (result.ok) await claim.finish(201, result.data);
    else await claim.abort().catch(() => {});
    return result;
  });

/**
 * A middleware's own successful answer, without running the rest of the chain. tRPC (checked on
 * 11.25.2) has no public constructor for it: a result is `{ ok: true, data }` as its docs show
 * middlewares reading `next()`'s, plus a `marker` that is a type brand only (tRPC never reads it
 * at run time), hence the cast.
 */
function replayed<Result>(data: unknown): Result {
  return { ok: true, data } as Result;
}

/** perfil ADMIN, enforced (docs/contract/accounts.md). */
export const adminProcedure = authedProcedure.meta({ access: 'admin' }).use(({ ctx, next }) => {
  if (!isSiteAdmin(ctx.actor))
    throw forbidden('Acesso restrito a administradores', 'ADMIN_REQUIRED');
  return next();
});

/** A domain's procedure builders, each carrying the domain's reply language in its meta. */
export function domainProcedures(language: RoutePolicy['language']) {
  return {
    publicProcedure: publicProcedure.meta({ language }),
    authedProcedure: authedProcedure.meta({ language }),
    adminProcedure: adminProcedure.meta({ language }),
  };
}
