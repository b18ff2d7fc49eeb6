/** The content codings the server sends precompressed bodies in. */
export type Encoding = 'br' | 'gzip';

/** The choice per Accept-Encoding header already seen: parsing one allocates a dozen strings. */
const chosenFor = new Map<string, Encoding | false>();
const CHOSEN_MAX = 256;

/**
 * Brotli when the client accepts it, else gzip, else none. `q=0` refuses a coding and `*` stands
 * for the others. No header at all → none: read as "anything goes" by the RFC, it would hand
 * Brotli to curl without --compressed. (Express's negotiation breaks ties by the client's order,
 * which picks gzip for a browser's "gzip, deflate, br".)
 */
export function chooseEncoding(header: string | undefined): Encoding | false {
  if (!header) return false;
  let chosen = chosenFor.get(header);
  if (chosen === undefined) {
    chosen = negotiate(header);
    // Clients send a handful of distinct headers; a flood of made-up ones just starts it over.
    if (chosenFor.size >= CHOSEN_MAX) chosenFor.clear();
    chosenFor.set(header, chosen);
  }
  return chosen;
}

function negotiate(header: string): Encoding | false {
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [coding = '', ...params] = part.split(';').map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    weights.set(coding, q ? Number(q.slice(2)) : 1);
  }
  const accepts = (coding: Encoding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
  return accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : false;
}

/**
 * RFC 9110 §13.1.2: `If-None-Match` names the ETag (weak comparison) or is `*`. The origin
 * evaluates it whatever `Cache-Control` says: Express's `req.fresh` gives up on `no-cache`, which
 * Node's fetch sends with every conditional request, so Node clients never got a 304.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
