import { describe, expect, it } from 'vitest';
import { toEscolaridadeCode } from './escolaridades';
import { birthDateSchema, isCalendarDate } from './schemas';

describe('isCalendarDate', () => {
  it.each([
    ['2024-02-29', true],
    ['2000-02-29', true],
    ['1900-02-28', true],
    ['2023-02-29', false],
    ['1900-02-29', false],
    ['2023-02-30', false],
    ['2023-04-31', false],
    ['2023-13-01', false],
    ['2023-00-10', false],
    ['2023-01-00', false],
  ])('%s → %s', (date, valid) => expect(isCalendarDate(date)).toBe(valid));
});

describe('birthDateSchema', () => {
  it('gives one issue per bad date, the first rule it breaks', () => {
    for (const date of ['2023-02-30', '20230101', '1899-12-31', '2999-01-01']) {
      expect(birthDateSchema.safeParse(date).error?.issues, date).toHaveLength(1);
    }
  });
});

describe('toEscolaridadeCode', () => {
  it('maps a label or a code to the code', () => {
    expect(toEscolaridadeCode('Ensino Médio')).toBe('ENSINO_MEDIO');
    expect(toEscolaridadeCode('ENSINO_MEDIO')).toBe('ENSINO_MEDIO');
    expect(toEscolaridadeCode('Pós-graduação')).toBe('POS_GRADUACAO');
  });
});
