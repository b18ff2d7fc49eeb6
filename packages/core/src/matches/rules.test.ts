import { describe, expect, it } from 'vitest';
import {
  canTransition,
  effectiveStatus,
  fitsCapacity,
  placeNewPlayer,
  teamCapacity,
} from './rules';

describe('match rules', () => {
  const now = new Date('2030-01-01T12:00:00Z');
  const before = new Date('2030-01-01T11:59:59Z');
  const after = new Date('2030-01-01T12:00:01Z');

  it('EM_BREVE reads EM_ANDAMENTO from its date on; other statuses read as stored', () => {
    expect(effectiveStatus('EM_BREVE', after, now)).toBe('EM_BREVE');
    expect(effectiveStatus('EM_BREVE', now, now)).toBe('EM_ANDAMENTO');
    expect(effectiveStatus('EM_BREVE', before, now)).toBe('EM_ANDAMENTO');
    expect(effectiveStatus('CANCELADA', before, now)).toBe('CANCELADA');
    expect(effectiveStatus('FINALIZADA', after, now)).toBe('FINALIZADA');
  });

  it.each([
    [2, 1, 1],
    [3, 2, 1],
    [10, 5, 5],
    [11, 6, 5],
    [100, 50, 50],
  ])('maxPlayers %i → team A %i, team B %i', (max, a, b) => {
    expect(teamCapacity(max)).toEqual({ A: a, B: b });
  });

  it('places in the team with fewer players, a tie in A, the other team when that one is full', () => {
    expect(placeNewPlayer({ A: 0, B: 0 }, 10)).toBe('A');
    expect(placeNewPlayer({ A: 1, B: 0 }, 10)).toBe('B');
    expect(placeNewPlayer({ A: 2, B: 3 }, 10)).toBe('A');
    expect(placeNewPlayer({ A: 2, B: 2 }, 5)).toBe('A');
    expect(placeNewPlayer({ A: 3, B: 2 }, 5)).toBeUndefined();
    expect(placeNewPlayer({ A: 2, B: 1 }, 3)).toBeUndefined();
    expect(placeNewPlayer({ A: 1, B: 1 }, 3)).toBe('A');
  });

  it('capacity holds per team, not only in total', () => {
    expect(fitsCapacity({ A: 3, B: 2 }, 5)).toBe(true);
    expect(fitsCapacity({ A: 2, B: 3 }, 5)).toBe(false);
    expect(fitsCapacity({ A: 3, B: 3 }, 5)).toBe(false);
  });

  it('allows exactly the transitions of docs/contract/matches.md (Status), and setting the same status', () => {
    const allowed = [
      ['EM_BREVE', 'EM_ANDAMENTO'],
      ['EM_BREVE', 'CANCELADA'],
      ['EM_ANDAMENTO', 'FINALIZADA'],
    ];
    const statuses = ['EM_BREVE', 'EM_ANDAMENTO', 'FINALIZADA', 'CANCELADA'] as const;
    for (const from of statuses) {
      for (const to of statuses) {
        const expected = from === to || allowed.some(([f, t]) => f === from && t === to);
        expect(canTransition(from, to), `${from} → ${to}`).toBe(expected);
      }
    }
  });
});
