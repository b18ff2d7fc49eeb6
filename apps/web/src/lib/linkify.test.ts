import { describe, expect, it } from 'vitest';
import { linkify } from './linkify';

describe('linkify', () => {
  it('turns http and https addresses into links and keeps the rest as text', () => {
    expect(linkify('Inscrições em https://campus.dev/torneio?x=1 até sexta')).toEqual([
      { text: 'Inscrições em ' },
      { text: 'https://campus.dev/torneio?x=1', href: 'https://campus.dev/torneio?x=1' },
      { text: ' até sexta' },
    ]);
    expect(linkify('http://a.b')).toEqual([{ text: 'http://a.b', href: 'http://a.b/' }]);
    expect(linkify('sem links')).toEqual([{ text: 'sem links' }]);
    expect(linkify('')).toEqual([]);
  });

  it('leaves out the punctuation that ends the sentence', () => {
    expect(
      linkify('Veja https://x.com/a. Depois (https://x.com/b), e https://x.com/c_(d).'),
    ).toEqual([
      { text: 'Veja ' },
      { text: 'https://x.com/a', href: 'https://x.com/a' },
      { text: '. Depois (' },
      { text: 'https://x.com/b', href: 'https://x.com/b' },
      { text: '), e ' },
      { text: 'https://x.com/c_(d)', href: 'https://x.com/c_(d)' },
      { text: '.' },
    ]);
  });

  it('never makes a link of another scheme or of markup', () => {
    const text = 'javascript:alert(1) data:text/html,<b>x</b> <a href="https://x.com">y</a>';
    const pieces = linkify(text);
    expect(pieces.filter((piece) => 'href' in piece)).toEqual([
      { text: 'https://x.com', href: 'https://x.com/' },
    ]);
    expect(pieces.map((piece) => piece.text).join('')).toBe(text);
    expect(linkify('https://<script>')).toEqual([{ text: 'https://<script>' }]);
  });
});
