/*
 * The feed's filters and the address that holds them, both ways: a module of its own, without
 * React, so that the page's first script can ask for the first page (session/early.ts).
 */

/** What the feed page asks for (a part of the list's input, without the cursor). */
export interface FeedQuery {
  limit: number;
  q?: string;
  type?: 'GENERAL' | 'EVENT';
  upcoming?: boolean;
}
const PAGE_SIZE = 10;
export const TYPES = { GENERAL: 'Publicações', EVENT: 'Eventos' } as const;

/**
 * The feed's filters as they stand in the address (a reload or a shared link keeps them). A
 * `?pagina=` of the paged feed that was is ignored: the endless feed starts at the top.
 */
export function feedQueryFrom(query: URLSearchParams): FeedQuery {
  const q = query.get('busca')?.trim();
  const type = query.get('tipo');
  return {
    limit: PAGE_SIZE,
    ...(q ? { q } : {}),
    ...(type && type in TYPES ? { type: type as keyof typeof TYPES } : {}),
    ...(query.get('proximos') === '1' ? { upcoming: true } : {}),
  };
}

export function feedSearch(filters: { q?: string; type?: string; upcoming?: boolean }) {
  const params = new URLSearchParams();
  if (filters.q) params.set('busca', filters.q);
  if (filters.type) params.set('tipo', filters.type);
  if (filters.upcoming) params.set('proximos', '1');
  const search = params.toString();
  return `/feed${search ? `?${search}` : ''}`;
}
