import { linkify } from '../lib/linkify';

/**
 * A post's or a comment's text with its http(s) addresses as links. The text is rendered as
 * React text nodes and `<a>` elements only: nothing in it is ever read as HTML.
 */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {linkify(text).map((piece, i) =>
        'href' in piece ? (
          <a key={i} href={piece.href} rel="noopener noreferrer nofollow ugc">
            {piece.text}
          </a>
        ) : (
          piece.text
        ),
      )}
    </>
  );
}
