import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  claimIdempotencyKey,
  malformedKey,
  resolveLocation,
  type Context,
  type IdempotencyClaim,
  type RestRoute,
} from '@campus/api';
import { sendJson } from './front';

/** What the REST adapter does with a create that carries an `Idempotency-Key`. */
export type IdempotentCall =
  /** No key, not a create, or an anonymous caller: run as usual. */
  | { kind: 'plain' }
  /** Answered already: a replay of the first answer (`Idempotent-Replayed: true`). */
  | { kind: 'answered' }
  | Exclude<IdempotencyClaim, { kind: 'replay' }>;

/**
 * `Idempotency-Key` on a POST that creates (extensions.md §F; the claim: packages/api's
 * idempotency.ts). Registration, which has no user yet, ignores the key.
 */
export async function beginIdempotentCall(
  req: IncomingMessage,
  res: ServerResponse,
  route: RestRoute,
  input: unknown,
  ctx: Context,
): Promise<IdempotentCall> {
  const sent = req.headers['idempotency-key'];
  const key = Array.isArray(sent) ? sent.join(', ') : sent;
  if (key === undefined || route.rest.method !== 'POST' || route.rest.successStatus !== 201)
    return { kind: 'plain' };
  const malformed = malformedKey(key);
  if (malformed) return { kind: 'refused', error: malformed };
  const token = /^Bearer\s+(\S+)$/i.exec(ctx.authorization ?? '')?.[1];
  // Not signed in (or not validly): the procedure answers its own 401, or registers anonymously.
  const user = token
    ? await ctx.services.auth.authenticate(token).catch(() => undefined)
    : undefined;
  if (!user) return { kind: 'plain' };

  const claim = await claimIdempotencyKey(ctx.services, user.id, key, route.path, input);
  if (claim.kind !== 'replay') return claim;
  res.setHeader('Idempotent-Replayed', 'true');
  const location = route.meta.location && resolveLocation(route.meta.location, input, claim.body);
  if (location) res.setHeader('Location', location);
  sendJson(res, claim.status, claim.body);
  return { kind: 'answered' };
}
