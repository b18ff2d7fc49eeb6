import { describe, expect, it } from 'vitest';
import { eventDateTime, fullDateTime, relativeTime } from './format';

// A fixed instant: Wednesday 25 November 2026, 22:30 UTC = 19:30 in São Paulo (UTC-3).
const NOW = Date.parse('2026-11-25T22:30:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('relative times', () => {
  it('says how long ago, in the largest unit, in Portuguese', () => {
    expect(relativeTime(ago(10), NOW)).toBe('agora');
    expect(relativeTime(ago(5 * 60), NOW)).toBe('há 5 minutos');
    expect(relativeTime(ago(60), NOW)).toBe('há 1 minuto');
    expect(relativeTime(ago(3 * 3600 + 59), NOW)).toBe('há 3 horas');
    expect(relativeTime(ago(26 * 3600), NOW)).toBe('ontem');
    expect(relativeTime(ago(3 * 86_400), NOW)).toBe('há 3 dias');
    expect(relativeTime(ago(15 * 86_400), NOW)).toBe('há 2 semanas');
    expect(relativeTime(ago(400 * 86_400), NOW)).toBe('ano passado');
  });

  it('says how far ahead a future date is', () => {
    expect(relativeTime(ago(-3 * 86_400), NOW)).toBe('em 3 dias');
    expect(relativeTime(ago(-2 * 3600), NOW)).toBe('em 2 horas');
  });
});

describe('dates in full and with their zone', () => {
  it('writes a date in full in the given zone', () => {
    expect(fullDateTime(ago(0), 'America/Sao_Paulo')).toBe(
      'quarta-feira, 25 de novembro de 2026 às 19:30',
    );
    expect(fullDateTime(ago(0), 'UTC')).toBe('quarta-feira, 25 de novembro de 2026 às 22:30');
  });

  it('gives an event the weekday and São Paulo time, and the reader’s time when it differs', () => {
    const iso = ago(0);
    expect(eventDateTime(iso, 'America/Sao_Paulo')).toBe(
      'qua., 25/11/2026, 19:30 (horário de Brasília)',
    );
    // Another zone with the same clock time at that instant needs no second time.
    expect(eventDateTime(iso, 'America/Bahia')).toBe(
      'qua., 25/11/2026, 19:30 (horário de Brasília)',
    );
    expect(eventDateTime(iso, 'UTC')).toBe(
      'qua., 25/11/2026, 19:30 (horário de Brasília) · 22:30 no seu fuso (UTC)',
    );
    // Past midnight elsewhere: the reader's day is written too.
    expect(eventDateTime(iso, 'Asia/Tokyo')).toBe(
      'qua., 25/11/2026, 19:30 (horário de Brasília) · qui., 26/11/2026, 07:30 no seu fuso (GMT+9)',
    );
  });
});
