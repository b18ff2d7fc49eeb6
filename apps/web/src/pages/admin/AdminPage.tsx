import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage, StatusMessage } from '../../components/Alert';
import { Page } from '../../components/Page';
import { Pagination } from '../../components/Pagination';
import { formMessage } from '../../lib/errors';
import { PERFIL_LABELS, USER_STATUS_LABELS } from '../../lib/format';
import { navigate, pageFrom, useLocation } from '../../lib/router';
import { useTRPC, type RouterInputs, type RouterOutputs } from '../../lib/trpc';
import { useSession } from '../../session/SessionProvider';
import { AdminFilters, filtersFrom, toSearch } from './AdminFilters';

type AdminUser = RouterOutputs['admin']['listUsers']['dados'][number];
type StatusInput = RouterInputs['admin']['updateUserStatus']['status'];

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
      <AdminFilters filters={filters} />

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
