import { AppError, requestFingerprint, type Services } from '@campus/core';

/*
 * `Idempotency-Key` on a create (docs/contract/protocol.md), per user: the same key with the same
 * request within 24 h answers the first answer again and creates nothing, in any process.
 * `authedProcedure` (trpc.ts) claims it for REST and /trpc alike, so a key means the same over both.
 */

/** What a create that carries a key does. */
export type IdempotencyClaim =
  /** Answered already: the first answer, to send again. */
  | { kind: 'replay'; status: number; body: unknown }
  /** Refused: the key is malformed, reused with another body (422), or its first request still runs (409). */
  | { kind: 'refused'; error: AppError }
  /** This request is the first with its key: record its answer, or forget the key if it fails. */
  | { kind: 'first'; finish(status: number, body: unknown): Promise<void>; abort(): Promise<void> };

const KEY = /^[\x21-\x7e]{1,255}$/;

/** The refusal of a key that is no 1-255 visible ASCII characters; undefined for a good one. */
export const malformedKey = (key: string) =>
  KEY.test(key)
    ? undefined
    : new AppError('BAD_REQUEST', 'Idempotency-Key deve ter de 1 a 255 caracteres ASCII visíveis');

export async function claimIdempotencyKey(
  services: Services,
  userId: string,
  key: string,
  procedure: string,
  input: unknown,
): Promise<IdempotencyClaim> {
  const malformed = malformedKey(key);
  if (malformed) return { kind: 'refused', error: malformed };
  const scope = { userId, key };
  const claim = await services.idempotency.claim(
    scope,
    procedure,
    requestFingerprint(procedure, input),
  );
  switch (claim.state) {
    case 'claimed':
      return {
        kind: 'first',
        finish: (status, body) => services.idempotency.complete(scope, status, body),
        abort: () => services.idempotency.release(scope),
      };
    case 'replay':
      return { kind: 'replay', status: claim.status, body: claim.body };
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
          { reason: 'IDEMPOTENCY_KEY_IN_USE' },
        ),
      };
  }
}
