import { describe, expect, it } from 'vitest';
import {
  CIDADES_POR_UF,
  ESTADOS,
  isUf,
  normalizeLocalityName,
  officialCityName,
} from './localities';
import { ufSchema } from './schemas';

describe('normalizeLocalityName', () => {
  it.each([
    ['São Paulo', 'sao paulo'],
    ['  SÃO   PAULO ', 'sao paulo'],
    ["Olho d'Água das Flores", 'olho d agua das flores'],
    ['Olho d’Água das Flores', 'olho d agua das flores'],
    ['Embu-Guaçu', 'embu guacu'],
    ['Governador Dix-Sept Rosado', 'governador dix sept rosado'],
    // Decomposed input (e + combining acute) reads like the composed form.
    ['Bele\u0301m', 'belem'],
  ])('%s → %s', (name, normalised) => {
    expect(normalizeLocalityName(name)).toBe(normalised);
  });
});

describe('officialCityName', () => {
  it('finds a municipality of the UF whatever the case, accents or separators', () => {
    expect(officialCityName('SP', 'sao paulo')).toBe('São Paulo');
    expect(officialCityName('SP', 'EMBU GUACU')).toBe('Embu-Guaçu');
    expect(officialCityName('MG', 'são joão del-rei')).toBe('São João del Rei');
    expect(officialCityName('DF', 'BRASILIA')).toBe('Brasília');
    expect(officialCityName('AL', "olho d'agua das flores")).toBe("Olho d'Água das Flores");
  });

  it('refuses a municipality of another UF and names that are not municipalities', () => {
    expect(officialCityName('RJ', 'Campinas')).toBeUndefined();
    expect(officialCityName('SP', 'Sao')).toBeUndefined();
    expect(officialCityName('SP', '')).toBeUndefined();
    expect(officialCityName('DF', 'Taguatinga')).toBeUndefined();
  });

  it('is unambiguous: no two municipalities of one UF normalise alike, and each finds itself', () => {
    let total = 0;
    for (const [uf, cidades] of CIDADES_POR_UF) {
      expect(new Set(cidades.map(normalizeLocalityName)).size, uf).toBe(cidades.length);
      for (const cidade of cidades) expect(officialCityName(uf, cidade)).toBe(cidade);
      total += cidades.length;
    }
    expect(total).toBe(5571);
  });
});

describe('states', () => {
  it('27 UFs; isUf takes upper case only, ufSchema folds case', () => {
    expect(ESTADOS).toHaveLength(27);
    expect(CIDADES_POR_UF.get('SP')).toHaveLength(645);
    expect(CIDADES_POR_UF.get('MG')).toHaveLength(853);
    expect(isUf('SP')).toBe(true);
    expect(isUf('sp')).toBe(false);
    expect(isUf('XX')).toBe(false);
    expect(ufSchema.parse(' rj ')).toBe('RJ');
    expect(ufSchema.safeParse('XX').success).toBe(false);
  });
});
