import { createHash } from 'node:crypto';

/** A response body serialised once, with a strong ETag of exactly those bytes. */
export interface PrecomputedResponse<T> {
  readonly body: T;
  /** `body` as UTF-8 JSON, encoded once (sent as is, never re-encoded per request). */
  readonly bytes: Buffer;
  readonly etag: string;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export function precompute<T>(body: T): PrecomputedResponse<T> {
  const bytes = Buffer.from(JSON.stringify(body));
  const etag = `"${createHash('sha256').update(bytes).digest('base64url')}"`;
  // Frozen: one object is handed to every request, so nothing may change it in place.
  return { body: deepFreeze(body), bytes, etag };
}
