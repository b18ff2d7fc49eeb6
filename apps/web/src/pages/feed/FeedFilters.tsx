import { LIMITS } from '@campus/core/schemas';
import { useState, type FormEvent } from 'react';
import { Link, navigate, pageFrom } from '../../lib/router';

/** What the feed page asks for (a part of the list's input). */
export interface FeedQuery {
  page: number;
  limit: number;
  q?: string;
  type?: 'GENERAL' | 'EVENT';
  upcoming?: boolean;
}
const PAGE_SIZE = 10;
const TYPES = { GENERAL: 'Publicações', EVENT: 'Eventos' } as const;

/** The feed's filters as they stand in the address (a reload or a shared link keeps them). */
export function feedQueryFrom(query: URLSearchParams): FeedQuery {
  const q = query.get('busca')?.trim();
  const type = query.get('tipo');
  return {
    page: pageFrom(query),
    limit: PAGE_SIZE,
    ...(q ? { q } : {}),
    ...(type && type in TYPES ? { type: type as keyof typeof TYPES } : {}),
    ...(query.get('proximos') === '1' ? { upcoming: true } : {}),
  };
}

export function feedSearch(filters: {
  q?: string;
  type?: string;
  upcoming?: boolean;
  page?: number;
}) {
  const params = new URLSearchParams();
  if (filters.q) params.set('busca', filters.q);
  if (filters.type) params.set('tipo', filters.type);
  if (filters.upcoming) params.set('proximos', '1');
  if (filters.page && filters.page > 1) params.set('pagina', String(filters.page));
  const search = params.toString();
  return `/feed${search ? `?${search}` : ''}`;
}

/** "Todas" / "Próximos eventos", a search box and a type filter. */
export function FeedFilters({ filters }: { filters: FeedQuery }) {
  const [q, setQ] = useState(filters.q ?? '');
  const [type, setType] = useState<string>(filters.type ?? '');

  function apply(event: FormEvent) {
    event.preventDefault();
    navigate(feedSearch({ q: q.trim(), type, ...(filters.upcoming ? { upcoming: true } : {}) }));
  }

  return (
    <>
      <nav aria-label="Vistas do feed" className="row tabs">
        <Link to="/feed" aria-current={filters.upcoming ? undefined : 'page'}>
          Todas
        </Link>
        <Link to="/feed?proximos=1" aria-current={filters.upcoming ? 'page' : undefined}>
          Próximos eventos
        </Link>
      </nav>
      <form className="card filters" onSubmit={apply} role="search" aria-label="Buscar no feed">
        <div className="field">
          <label htmlFor="feed-busca">Buscar</label>
          <input
            id="feed-busca"
            type="search"
            value={q}
            maxLength={LIMITS.post.search.max}
            onChange={(e) => setQ(e.target.value)}
            placeholder="título ou texto"
          />
        </div>
        {filters.upcoming ? null : (
          <div className="field">
            <label htmlFor="feed-tipo">Tipo</label>
            <select id="feed-tipo" value={type} onChange={(e) => setType(e.target.value)}>
              <option value="">Todos</option>
              {Object.entries(TYPES).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="row">
          <button type="submit">Buscar</button>
        </div>
      </form>
    </>
  );
}
