import { describe, expect, it } from 'vitest';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password';

describe('scrypt password hashing', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const a = await hashPassword('correct horse battery', 10);
    const b = await hashPassword('correct horse battery', 10);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$10\$8\$1\$/);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
  });

  it('rejects hashes it does not understand', async () => {
    expect(await verifyPassword('x', 'bcrypt$whatever')).toBe(false);
    expect(await verifyPassword('x', '')).toBe(false);
  });

  it('keeps one decoy hash per cost: an unknown e-mail costs what a known one costs', async () => {
    const cheap = await decoyPasswordHash(4);
    expect(cheap).toMatch(/^scrypt\$4\$8\$1\$/);
    expect(await decoyPasswordHash(5)).toMatch(/^scrypt\$5\$8\$1\$/);
    expect(await decoyPasswordHash(4)).toBe(cheap);
  });
});
