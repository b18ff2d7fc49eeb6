import { type AuthUser, type Services, unauthorized, forbidden } from '@campus/core';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { toHttpError, toTRPCError } from './errors';

/** Per-request context: the services (built once per process) and the raw credentials. */
export interface Context {
  services: Services;
  /** The `Authorization` header as sent, if any. */
  authorization: string | undefined;
  /** Marks a procedure call as running; the returned function marks it done (graceful shutdown). */
  track?: () => () => void;
}

/** OpenAPI meta plus the success status of the REST route (200 unless said). */
export type Meta = OpenApiMeta<{ successStatus?: 201 | 204 }>;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    isDev: false,
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

/** Domain errors and input validation failures become TRPCErrors with the matching code. */
const translateErrors = t.middleware(async ({ ctx, next, path }) => {
  const done = ctx.track?.();
  try {
    const result = await next();
    if (!result.ok) throw toTRPCError(result.error, path);
    return result;
  } finally {
    done?.();
  }
});

export const publicProcedure = t.procedure.use(translateErrors);

function bearerToken(header: string | undefined): string {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match) throw unauthorized('Token de acesso ausente', 'TOKEN_INVALID');
  return match[1]!;
}

/** A valid access token of an existing, ATIVO user. */
export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const user: AuthUser = await ctx.services.authenticate(bearerToken(ctx.authorization));
  return next({ ctx: { user } });
});

/** perfil ADMIN (decisions.md §3: enforced, unlike the implementation the spec describes). */
export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.perfil !== 'ADMIN') throw forbidden('Acesso restrito a administradores', 'ADMIN_REQUIRED');
  return next();
});
