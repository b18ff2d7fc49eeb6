import { LIMITS } from '@campus/core/schemas';
import { useState, type FormEvent } from 'react';
import { PERFIL_LABELS, USER_STATUS_LABELS } from '../../lib/format';
import { navigate, pageFrom } from '../../lib/router';
import type { RouterInputs } from '../../lib/trpc';

export type Filters = RouterInputs['admin']['listUsers'];
const PAGE_SIZE = 20;

/** The list's filters as they stand in the address (so a reload or a shared link keeps them). */
export function filtersFrom(query: URLSearchParams): Filters {
  const status = query.get('status');
  const perfil = query.get('perfil');
  const busca = query.get('busca')?.trim();
  return {
    page: pageFrom(query),
    limit: PAGE_SIZE,
    ...(status && status in USER_STATUS_LABELS ? { status: status as Filters['status'] } : {}),
    ...(perfil && perfil in PERFIL_LABELS ? { perfil: perfil as Filters['perfil'] } : {}),
    ...(busca ? { busca } : {}),
  };
}

export function toSearch(filters: {
  status?: string;
  perfil?: string;
  busca?: string;
  page?: number;
}) {
  const params = new URLSearchParams();
  for (const key of ['busca', 'status', 'perfil'] as const)
    if (filters[key]) params.set(key, filters[key]);
  if (filters.page && filters.page > 1) params.set('pagina', String(filters.page));
  const search = params.toString();
  return `/administracao${search ? `?${search}` : ''}`;
}

/** The filter form: applying it puts the filters in the address. */
export function AdminFilters({ filters }: { filters: Filters }) {
  const [busca, setBusca] = useState(filters.busca ?? '');
  const [status, setStatus] = useState<string>(filters.status ?? '');
  const [perfil, setPerfil] = useState<string>(filters.perfil ?? '');

  function applyFilters(event: FormEvent) {
    event.preventDefault();
    navigate(toSearch({ busca: busca.trim(), status, perfil }));
  }

  return (
    <form
      className="card filters"
      onSubmit={applyFilters}
      role="search"
      aria-label="Filtrar usuários"
    >
      <div className="field">
        <label htmlFor="admin-busca">Buscar</label>
        <input
          id="admin-busca"
          type="search"
          value={busca}
          onChange={(e) => setBusca(e.target.value)}
          placeholder="Nome, nickname ou e-mail"
          maxLength={LIMITS.userSearch.max}
        />
      </div>
      <div className="field">
        <label htmlFor="admin-status">Situação</label>
        <select id="admin-status" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">Todas</option>
          {Object.entries(USER_STATUS_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="admin-perfil">Perfil</label>
        <select id="admin-perfil" value={perfil} onChange={(e) => setPerfil(e.target.value)}>
          <option value="">Todos</option>
          {Object.entries(PERFIL_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="primary">
        Filtrar
      </button>
    </form>
  );
}
