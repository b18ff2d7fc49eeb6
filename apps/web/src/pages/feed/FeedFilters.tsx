import { useState, type FormEvent } from 'react';
import { Icon } from '../../components/Icon';
import { Sheet } from '../../components/Sheet';
import { Link, navigate } from '../../lib/router';
import { feedSearch, TYPES, type FeedQuery } from './feedQuery';

/**
 * The search's longest text (core's LIMITS.post.search.max, which the limits test checks against
 * the rendered field): written here so that the feed's first load does not bring core's schemas.
 */
const SEARCH_MAX = 200;

/** The search and type, in a sheet: the feed keeps the screen. */
function FilterSheet({ filters }: { filters: FeedQuery }) {
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState(filters.q ?? '');
  const [type, setType] = useState<string>(filters.type ?? '');
  const count = Number(Boolean(filters.q)) + Number(Boolean(filters.type));

  function apply(event: FormEvent) {
    event.preventDefault();
    setOpen(false);
    navigate(feedSearch({ q: q.trim(), type, ...(filters.upcoming ? { upcoming: true } : {}) }));
  }

  return (
    <Sheet
      title="Buscar no feed"
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="small with-icon">
          <Icon name="filter" />
          Filtros{count ? ` (${count})` : ''}
        </button>
      }
    >
      <form className="stack" onSubmit={apply} role="search" aria-label="Buscar no feed">
        <div className="field">
          <label htmlFor="feed-busca">Buscar</label>
          <input
            id="feed-busca"
            type="search"
            value={q}
            maxLength={SEARCH_MAX}
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
        <button type="submit" className="primary">
          Buscar
        </button>
      </form>
    </Sheet>
  );
}

/** "Todas" / "Próximos eventos" as tabs, the filters' button, and the filters in force. */
export function FeedFilters({ filters }: { filters: FeedQuery }) {
  const active = [
    filters.q ? `“${filters.q}”` : null,
    filters.type ? TYPES[filters.type] : null,
  ].filter(Boolean);
  return (
    <div className="feed-bar">
      <div className="row">
        <nav aria-label="Vistas do feed" className="tabs">
          <Link to="/feed" aria-current={filters.upcoming ? undefined : 'page'}>
            Todas
          </Link>
          <Link to="/feed?proximos=1" aria-current={filters.upcoming ? 'page' : undefined}>
            Próximos eventos
          </Link>
        </nav>
        <FilterSheet filters={filters} />
      </div>
      {active.length ? (
        <p className="row wrap meta">
          Filtrando por {active.join(' · ')}
          <Link
            to={feedSearch({ ...(filters.upcoming ? { upcoming: true } : {}) })}
            className="chip"
          >
            Limpar filtros
          </Link>
        </p>
      ) : null}
    </div>
  );
}
