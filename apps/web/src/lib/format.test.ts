import { describe, expect, it } from 'vitest';
import { initialMatchValues, toCreateFields, toUpdateFields } from '../pages/matches/MatchForm';
import { initialPostValues, toPostFields } from '../pages/feed/PostForm';
import { fromLocalInput, plural, toLocalInput } from './format';
import { matchPath, pageFrom } from './router';

describe('dates in forms', () => {
  it('round-trips a timestamp through a datetime-local value', () => {
    const iso = '2031-06-20T21:30:00.000Z';
    expect(fromLocalInput(toLocalInput(iso))).toBe(iso);
    expect(toLocalInput(null)).toBe('');
    expect(fromLocalInput('')).toBeUndefined();
    expect(fromLocalInput('not a date')).toBeUndefined();
  });
});

describe('routes', () => {
  it('matches paths with parameters', () => {
    expect(matchPath('/feed/:id', '/feed/abc')).toEqual({ id: 'abc' });
    expect(matchPath('/feed/:id', '/feed/abc/')).toEqual({ id: 'abc' });
    expect(matchPath('/feed/:id', '/partidas/abc')).toBeNull();
    expect(matchPath('/feed', '/feed/abc')).toBeNull();
  });

  it('reads the page of a list', () => {
    expect(pageFrom(new URLSearchParams('pagina=3'))).toBe(3);
    expect(pageFrom(new URLSearchParams('pagina=-2'))).toBe(1);
    expect(pageFrom(new URLSearchParams('pagina=abc'))).toBe(1);
    expect(pageFrom(new URLSearchParams(''))).toBe(1);
  });

  it('counts in Portuguese', () => {
    expect(plural(1, 'vaga livre', 'vagas livres')).toBe('1 vaga livre');
    expect(plural(0, 'vaga livre', 'vagas livres')).toBe('0 vagas livres');
  });
});

describe('post form', () => {
  it('drops the event fields of a general post and keeps them for an event', () => {
    const values = {
      ...initialPostValues(),
      title: 'Oi',
      eventDate: '2031-01-01T10:00',
      location: 'Sala 1',
    };
    expect(toPostFields(values)).toEqual({
      title: 'Oi',
      content: null,
      type: 'GENERAL',
      eventDate: null,
      eventFinishDate: null,
      location: null,
      groupId: null,
    });
    const groupId = '5b0c8f0e-2b7a-4c8e-9d4b-1f2a3b4c5d6e';
    expect(toPostFields({ ...values, groupId }).groupId).toBe(groupId);
    const event = toPostFields({ ...values, type: 'EVENT', content: 'Texto' });
    expect(event).toMatchObject({
      type: 'EVENT',
      content: 'Texto',
      location: 'Sala 1',
      eventFinishDate: null,
    });
    expect(event.eventDate).toBe(new Date('2031-01-01T10:00').toISOString());
  });
});

describe('match form', () => {
  it('leaves empty optional fields to the API’s defaults on creation', () => {
    const values = {
      ...initialMatchValues(),
      title: 'Racha',
      maxPlayers: '10',
      MatchDate: '2031-06-20T18:30',
      location: 'Quadra',
    };
    const fields = toCreateFields(values);
    expect(fields).toEqual({
      title: 'Racha',
      maxPlayers: 10,
      MatchDate: new Date('2031-06-20T18:30').toISOString(),
      location: 'Quadra',
    });
    expect(Number.isNaN(toCreateFields({ ...values, maxPlayers: '' }).maxPlayers)).toBe(true);
  });

  it('sends only what changed on edit, and null for an emptied description', () => {
    const before = {
      ...initialMatchValues(),
      title: 'Racha',
      description: 'Traga água',
      maxPlayers: '10',
      MatchDate: '2031-06-20T18:30',
    };
    expect(toUpdateFields(before, before)).toEqual({});
    expect(
      toUpdateFields({ ...before, title: 'Racha de sábado', description: '' }, before),
    ).toEqual({
      title: 'Racha de sábado',
      description: null,
    });
    expect(toUpdateFields({ ...before, maxPlayers: '12' }, before)).toEqual({ maxPlayers: 12 });
  });
});
