import { createHash } from 'node:crypto';

/** A response body serialised once, with a strong ETag of exactly those bytes. */
export interface PrecomputedResponse<T> {
  readonly body: T;
  readonly json: string;
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
  const json = JSON.stringify(body);
  const etag = `"${createHash('sha256').update(json).digest('base64url')}"`;
  // Frozen: one object is handed to every request, so nothing may change it in place.
  return { body: deepFreeze(body), json, etag };
}
