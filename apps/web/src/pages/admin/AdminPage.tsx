import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorMessage, StatusMessage } from '../../components/Alert';
import { Page } from '../../components/Page';
import { Pagination } from '../../components/Pagination';
import { formMessage } from '../../lib/errors';
import { PERFIL_LABELS, USER_STATUS_LABELS } from '../../lib/format';
import { navigate, pageFrom, useLocation } from '../../lib/router';
import { useTRPC, type RouterInputs, type RouterOutputs } from '../../lib/trpc';
import { useSession } from '../../session/SessionProvider';

type Filters = RouterInputs['admin']['listUsers'];
type AdminUser = RouterOutputs['admin']['listUsers']['dados'][number];
type StatusInput = RouterInputs['admin']['updateUserStatus']['status'];
const PAGE_SIZE = 20;

/** The list's filters as they stand in the address (so a reload or a shared link keeps them). */
function filtersFrom(query: URLSearchParams): Filters {
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

function toSearch(filters: { status?: string; perfil?: string; busca?: string; page?: number }) {
  const params = new URLSearchParams();
  for (const key of ['busca', 'status', 'perfil'] as const)
    if (filters[key]) params.set(key, filters[key]);
  if (filters.page && filters.page > 1) params.set('pagina', String(filters.page));
  const search = params.toString();
  return `/administracao${search ? `?${search}` : ''}`;
}

/** Block / reactivate / approve, as the user's status allows. Admins and oneself: none. */
function actionsFor(
  target: AdminUser,
  meId: string | undefined,
): { to: StatusInput; label: string }[] {
  if (target.perfil === 'ADMIN' || target.id === meId) return [];
  if (target.status === 'ATIVO') return [{ to: 'INATIVO', label: 'Bloquear' }];
  if (target.status === 'INATIVO') return [{ to: 'ATIVO', label: 'Reativar' }];
  return [
    { to: 'ATIVO', label: 'Aprovar' },
    { to: 'INATIVO', label: 'Bloquear' },
  ];
}

export function AdminPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { query } = useLocation();
  const filters = filtersFrom(query);
  const [busca, setBusca] = useState(filters.busca ?? '');
  const [status, setStatus] = useState<string>(filters.status ?? '');
  const [perfil, setPerfil] = useState<string>(filters.perfil ?? '');
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const list = useQuery({
    ...trpc.admin.listUsers.queryOptions(filters),
    placeholderData: keepPreviousData,
  });
  const change = useMutation(
    trpc.admin.updateUserStatus.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() }),
    }),
  );

  function applyFilters(event: FormEvent) {
    event.preventDefault();
    navigate(toSearch({ busca: busca.trim(), status, perfil }));
  }

  async function setUserStatus(target: AdminUser, to: StatusInput) {
    setNote(null);
    setError(null);
    try {
      const { dados } = await change.mutateAsync({ id: target.id, status: to });
      setNote(`${target.nome}: situação alterada para “${USER_STATUS_LABELS[dados.status]}”.`);
    } catch (failure) {
      setError(formMessage(failure));
    }
  }

  return (
    <Page title="Administração de usuários">
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

      <StatusMessage>{note}</StatusMessage>
      <ErrorMessage>{error ?? (list.error ? formMessage(list.error) : null)}</ErrorMessage>
      {list.isPending ? <p role="status">Carregando usuários…</p> : null}
      {list.data ? (
        <>
          <p>
            {list.data.metadados.total === 1
              ? '1 usuário encontrado.'
              : `${list.data.metadados.total} usuários encontrados.`}
          </p>
          <div className="table-wrap" tabIndex={0} aria-labelledby="users-caption">
            <table className="users">
              <caption id="users-caption" className="visually-hidden">
                Usuários, mais recentes primeiro
              </caption>
              <thead>
                <tr>
                  <th scope="col">Nome</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Perfil</th>
                  <th scope="col">Situação</th>
                  <th scope="col">Ações</th>
                </tr>
              </thead>
              <tbody aria-busy={list.isFetching}>
                {list.data.dados.map((u) => (
                  <tr key={u.id}>
                    <th scope="row">{u.nome}</th>
                    <td data-label="E-mail">{u.email}</td>
                    <td data-label="Perfil">{PERFIL_LABELS[u.perfil] ?? u.perfil}</td>
                    <td data-label="Situação">
                      <span className={`badge badge--${u.status.toLowerCase()}`}>
                        {USER_STATUS_LABELS[u.status] ?? u.status}
                      </span>
                    </td>
                    <td data-label="Ações">
                      {actionsFor(u, user?.id).map((a) => (
                        <button
                          key={a.to}
                          type="button"
                          className={a.to === 'INATIVO' ? 'small danger' : 'small'}
                          disabled={change.isPending}
                          aria-label={`${a.label} ${u.nome}`}
                          onClick={() => void setUserStatus(u, a.to)}
                        >
                          {a.label}
                        </button>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            label="Páginas de usuários"
            page={pageFrom(query)}
            totalPages={list.data.metadados.totalPages}
            onPage={(p) => navigate(toSearch({ ...filters, page: p }))}
          />
        </>
      ) : null}
    </Page>
  );
}
