import { describe, expect, it } from 'vitest';
import { toMatchColumns } from './records';

describe('toMatchColumns: request fields → the columns they set', () => {
  it('maps a create to every column it stores, the date as a Date', () => {
    const columns = toMatchColumns({
      userId: '3f1b7f9e-0000-4000-8000-000000000000',
      title: 'Futsal',
      maxPlayers: 10,
      MatchDate: '2030-05-01T18:00:00Z',
      location: 'Quadra',
      teamNameA: 'TIME_A',
      teamNameB: 'TIME_B',
    });
    expect(columns).toEqual({
      title: 'Futsal',
      maxPlayers: 10,
      matchDate: new Date('2030-05-01T18:00:00Z'),
      location: 'Quadra',
      teamNameA: 'TIME_A',
      teamNameB: 'TIME_B',
    });
  });

  it('sets only what a PATCH sent: null clears the description, MatchStatus is the status', () => {
    expect(toMatchColumns({ description: null, MatchStatus: 'CANCELADA' })).toEqual({
      description: null,
      status: 'CANCELADA',
    });
    expect(toMatchColumns({ title: 'Novo' })).toEqual({ title: 'Novo' });
  });
});
