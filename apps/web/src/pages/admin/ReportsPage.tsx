import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage, StatusMessage } from '../../components/Alert';
import { Page } from '../../components/Page';
import { ConfirmButton } from '../../components/ConfirmButton';
import { PagedItems } from '../../components/PagedItems';
import { RelativeTime } from '../../components/Times';
import { formMessage } from '../../lib/errors';
import { Link, navigate, pageFrom, useLocation } from '../../lib/router';
import { useTRPC, type RouterInputs, type RouterOutputs } from '../../lib/trpc';

type Case = RouterOutputs['admin']['listDenuncias']['dados'][number];
type Acao = RouterInputs['admin']['decideDenuncia']['acao'];

/** Hiding and restoring undo each other; discarded reports are gone, so that one asks first. */
const DECISIONS: { acao: Acao; label: string; done: string; confirm?: string }[] = [
  { acao: 'OCULTAR', label: 'Ocultar', done: 'ocultado' },
  { acao: 'RESTAURAR', label: 'Restaurar', done: 'restaurado' },
  {
    acao: 'DESCARTAR',
    label: 'Descartar denúncias',
    done: 'mantido; denúncias descartadas',
    confirm: 'Descartar estas denúncias? Elas não voltam.',
  },
];
const TIPO_LABELS = { POST: 'Publicação', COMENTARIO: 'Comentário' } as const;

const pathOf = (status: string, page = 1) =>
  `/administracao/denuncias?status=${status}${page > 1 ? `&pagina=${page}` : ''}`;

/** The moderation queue: most-reported first, with the three decisions on each item. */
export function ReportsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { query } = useLocation();
  const status = query.get('status') === 'RESOLVIDA' ? 'RESOLVIDA' : 'PENDENTE';
  const page = pageFrom(query);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const list = useQuery({
    ...trpc.admin.listDenuncias.queryOptions({ status, page, limit: 20 }),
    placeholderData: keepPreviousData,
  });
  const decide = useMutation(
    trpc.admin.decideDenuncia.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() }),
    }),
  );

  async function run(item: Case, decision: (typeof DECISIONS)[number]) {
    setNote(null);
    setError(null);
    try {
      await decide.mutateAsync({ tipo: item.tipo, id: item.id, acao: decision.acao });
      setNote(`${TIPO_LABELS[item.tipo]} ${decision.done}.`);
    } catch (failure) {
      setError(formMessage(failure));
    }
  }

  return (
    <Page title="Denúncias">
      <nav aria-label="Situação das denúncias" className="row tabs">
        <Link to={pathOf('PENDENTE')} aria-current={status === 'PENDENTE' ? 'page' : undefined}>
          Pendentes
        </Link>
        <Link to={pathOf('RESOLVIDA')} aria-current={status === 'RESOLVIDA' ? 'page' : undefined}>
          Resolvidas
        </Link>
        <Link to="/administracao">Usuários</Link>
      </nav>
      <StatusMessage>{note}</StatusMessage>
      <ErrorMessage>{error ?? (list.error ? formMessage(list.error) : null)}</ErrorMessage>
      {list.isPending ? <p role="status">Carregando denúncias…</p> : null}
      {list.data && list.data.dados.length === 0 ? <p>Nenhuma denúncia aqui.</p> : null}
      <PagedItems
        items={list.data?.dados}
        busy={list.isFetching}
        totalPages={list.data?.metadados.totalPages}
        pager={{
          label: 'Páginas de denúncias',
          page,
          onPage: (p) => navigate(pathOf(status, p)),
        }}
      >
        {(item) => (
          <li key={`${item.tipo}-${item.id}`}>
            <article className="card" aria-label={`${TIPO_LABELS[item.tipo]} ${item.id}`}>
              <p className="meta">
                {TIPO_LABELS[item.tipo]} ·{' '}
                {item.denuncias === 1 ? '1 denúncia' : `${item.denuncias} denúncias`} · última{' '}
                <RelativeTime iso={item.ultimaEm} />
                {item.oculto ? <span className="badge"> Oculto</span> : null}
              </p>
              {item.tipo === 'POST' ? <Link to={`/feed/${item.id}`}>Ver a publicação</Link> : null}
              <ul>
                {item.motivos.map((motivo, i) => (
                  <li key={i}>{motivo}</li>
                ))}
              </ul>
              <div className="row">
                {DECISIONS.map((decision) =>
                  decision.confirm ? (
                    <ConfirmButton
                      key={decision.acao}
                      label={decision.label}
                      question={decision.confirm}
                      confirmLabel="Sim, descartar"
                      className="small"
                      disabled={decide.isPending}
                      onConfirm={() => void run(item, decision)}
                    />
                  ) : (
                    <button
                      key={decision.acao}
                      type="button"
                      className={decision.acao === 'OCULTAR' ? 'small danger' : 'small'}
                      disabled={decide.isPending}
                      onClick={() => void run(item, decision)}
                    >
                      {decision.label}
                    </button>
                  ),
                )}
              </div>
            </article>
          </li>
        )}
      </PagedItems>
    </Page>
  );
}
