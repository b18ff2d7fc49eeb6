/** A piece of a post's text: plain text, or a web address to show as a link. */
export type TextPiece = { text: string } | { text: string; href: string };

// A run of characters that can be part of an address, starting with http:// or https://.
const ADDRESS = /\bhttps?:\/\/[^\s<>"'`]+/gi;
// Punctuation that ends a sentence rather than an address ("veja https://x.com/a.").
const TRAILING = /[.,;:!?…)\]}]+$/;

/** Only a well-formed http(s) address becomes a link; anything else stays text. */
function safeHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Splits text into plain pieces and http(s) links, for rendering as React elements (text is
 * never parsed as HTML). A closing parenthesis stays in the address when it opened one there.
 */
export function linkify(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(ADDRESS)) {
    let address = match[0];
    const trailing = TRAILING.exec(address)?.[0] ?? '';
    address = address.slice(0, address.length - trailing.length);
    if (trailing.startsWith(')') && address.includes('(')) address += ')';
    const href = safeHref(address);
    if (!href) continue;
    const start = match.index;
    if (start > last) pieces.push({ text: text.slice(last, start) });
    pieces.push({ text: address, href });
    last = start + address.length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}
