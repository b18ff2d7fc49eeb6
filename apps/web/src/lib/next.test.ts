import { describe, expect, it } from 'vitest';
import { safeNext } from './next';

const here = 'https://campus.example';

describe('safeNext: only a page of this site is a return target', () => {
  it('takes a same-origin path with its query and fragment', () => {
    expect(safeNext('/partidas/abc', here)).toBe('/partidas/abc');
    expect(safeNext('/feed?pagina=2#c', here)).toBe('/feed?pagina=2#c');
  });

  it('refuses other sites by any spelling, and nothing at all', () => {
    for (const foreign of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '/\t/evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'partidas/abc',
      '',
      null,
    ])
      expect(safeNext(foreign, here)).toBeNull();
  });

  it('refuses the login and sign-up pages themselves (no loop)', () => {
    for (const entry of ['/entrar', '/entrar?next=/feed', '/cadastro', '/cadastro/professor'])
      expect(safeNext(entry, here)).toBeNull();
    expect(safeNext('/cadastros-antigos', here)).toBe('/cadastros-antigos');
  });
});
