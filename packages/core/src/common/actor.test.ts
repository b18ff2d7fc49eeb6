import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { assertMayChange, mayChange, type Actor } from './actor';

const actor = (role: Actor['role'], id = 'a'): Actor => ({
  id,
  nickname: `user_${id}`,
  role,
  status: 'ATIVO',
});

describe('mayChange: the one rule for who may change a thing', () => {
  it('lets the owner, a group OWNER or ADMIN, and a site ADMIN change it', () => {
    expect(mayChange(actor('ALUNO', 'a'), { ownerId: 'a' })).toBe(true);
    expect(mayChange(actor('ALUNO'), { ownerId: 'b', actorGroupRole: 'OWNER' })).toBe(true);
    expect(mayChange(actor('ALUNO'), { ownerId: 'b', actorGroupRole: 'ADMIN' })).toBe(true);
    expect(mayChange(actor('ADMIN'), { ownerId: 'b' })).toBe(true);
  });

  it('refuses anyone else, a group MEMBER and a PROFESSOR included', () => {
    expect(mayChange(actor('ALUNO'), { ownerId: 'b' })).toBe(false);
    expect(mayChange(actor('PROFESSOR'), { ownerId: 'b' })).toBe(false);
    expect(mayChange(actor('ALUNO'), { ownerId: 'b', actorGroupRole: 'MEMBER' })).toBe(false);
    expect(mayChange(actor('ALUNO'), { ownerId: 'b', actorGroupRole: null })).toBe(false);
  });

  it('assertMayChange throws a 403 with reason NOT_OWNER, or the reason given', () => {
    expect(() => assertMayChange(actor('ALUNO', 'a'), { ownerId: 'a' }, 'no')).not.toThrow();
    const refusal = (...reason: [] | ['ADMIN_REQUIRED']) => {
      try {
        assertMayChange(actor('ALUNO'), { ownerId: 'b' }, 'Not yours', ...reason);
      } catch (error) {
        return error;
      }
      throw new Error('expected a refusal');
    };
    expect(refusal()).toBeInstanceOf(AppError);
    expect(refusal()).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Not yours',
      reason: 'NOT_OWNER',
    });
    expect(refusal('ADMIN_REQUIRED')).toMatchObject({ reason: 'ADMIN_REQUIRED' });
  });
});
