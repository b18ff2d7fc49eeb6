import { randomBytes } from 'node:crypto';
import { registerStudentExample } from '@campus/core';

/** A valid registration body with a unique nickname and e-mail; override any field. */
export function registration(overrides: Record<string, unknown> = {}) {
  const suffix = randomBytes(5).toString('hex');
  return {
    ...registerStudentExample,
    nickname: `maria_${suffix}`,
    email: `maria.${suffix}@campus.test`,
    ...overrides,
  };
}

/** Today's date (UTC) moved by `days`, as yyyy-mm-dd. */
export const isoDay = (days = 0) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
