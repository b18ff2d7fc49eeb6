import { resolveLocation, type Context, type RestRoute } from '@campus/api';
import { AppError, requestFingerprint, type IdempotencyScope } from '@campus/core';
import type { Request, Response } from 'express';

/** What the REST adapter does with a create that carries an `Idempotency-Key`. */
export type IdempotentCall =
  /** No key, not a create, or an anonymous caller: run as usual. */
  | { kind: 'plain' }
  /** Answered already: a replay of the first answer (`Idempotent-Replayed: true`). */
  | { kind: 'answered' }
  /** Refused: the key is malformed, reused with another body (422), or its first request still runs (409). */
  | { kind: 'refused'; error: AppError }
  /** This request is the first with its key: record its answer, or forget the key if it fails. */
  | { kind: 'first'; finish(status: number, body: unknown): Promise<void>; abort(): Promise<void> };

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on a POST that creates (extensions.md §F), per user: the same key with the
 * same request within 24 h answers the first answer again and creates nothing, in any process.
 * Registration, which has no user yet, ignores the key.
 */
export async function beginIdempotentCall(
  req: Request,
  res: Response,
  route: RestRoute,
  input: unknown,
  ctx: Context,
): Promise<IdempotentCall> {
  const key = req.get('Idempotency-Key');
  if (key === undefined || route.rest.method !== 'POST' || route.rest.successStatus !== 201)
    return { kind: 'plain' };
  if (!KEY.test(key)) {
    return {
      kind: 'refused',
      error: new AppError(
        'BAD_REQUEST',
        'Idempotency-Key deve ter de 1 a 255 caracteres ASCII visíveis',
      ),
    };
  }
  const token = /^Bearer\s+(\S+)$/i.exec(ctx.authorization ?? '')?.[1];
  // Not signed in (or not validly): the procedure answers its own 401, or registers anonymously.
  const user = token
    ? await ctx.services.auth.authenticate(token).catch(() => undefined)
    : undefined;
  if (!user) return { kind: 'plain' };

  const scope: IdempotencyScope = { userId: user.id, key };
  const claim = await ctx.services.idempotency.claim(
    scope,
    route.path,
    requestFingerprint(route.path, input),
  );
  switch (claim.state) {
    case 'claimed':
      return {
        kind: 'first',
        finish: (status, body) => ctx.services.idempotency.complete(scope, status, body),
        abort: () => ctx.services.idempotency.release(scope),
      };
    case 'replay': {
      res.setHeader('Idempotent-Replayed', 'true');
      const location =
        route.meta.location && resolveLocation(route.meta.location, input, claim.body);
      if (location) res.setHeader('Location', location);
      res.status(claim.status).type('application/json').send(JSON.stringify(claim.body));
      return { kind: 'answered' };
    }
    case 'mismatch':
      return {
        kind: 'refused',
        error: new AppError(
          'UNPROCESSABLE_CONTENT',
          'Idempotency-Key já usada com outra requisição',
          {
            reason: 'IDEMPOTENCY_KEY_REUSED',
          },
        ),
      };
    case 'running':
      return {
        kind: 'refused',
        error: new AppError(
          'CONFLICT',
          'A primeira requisição com esta Idempotency-Key ainda está em andamento',
          {
            reason: 'IDEMPOTENCY_KEY_IN_USE',
          },
        ),
      };
  }
}
