import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage, StatusMessage } from '../../components/Alert';
import { ConfirmButton } from '../../components/ConfirmButton';
import { Page, PendingPage } from '../../components/Page';
import { useAnnouncements } from '../../components/useAnnouncements';
import { formMessage } from '../../lib/errors';
import { formatDateTime, MATCH_STATUS_LABELS, plural } from '../../lib/format';
import { Link, navigate, useFlash } from '../../lib/router';
import { useTRPC, type RouterOutputs } from '../../lib/trpc';
import { useSession } from '../../session/SessionProvider';
import { MatchForm } from './MatchForm';
import { StatusBadge } from './MatchesPage';

type Match = RouterOutputs['matches']['get'];
type Team = Match['teamA'];
type MatchStatus = Match['MatchStatus'];

/** The status changes the author may make from each status (decisions.md §6). */
const TRANSITIONS: Record<MatchStatus, { to: MatchStatus; label: string; confirm?: string }[]> = {
  EM_BREVE: [
    { to: 'EM_ANDAMENTO', label: 'Iniciar partida' },
    { to: 'CANCELADA', label: 'Cancelar partida', confirm: 'Cancelar esta partida?' },
  ],
  EM_ANDAMENTO: [{ to: 'FINALIZADA', label: 'Finalizar partida' }],
  FINALIZADA: [],
  CANCELADA: [],
};

function TeamCard({ team, letter, me }: { team: Team; letter: 'A' | 'B'; me: string | undefined }) {
  const free = Math.max(0, team.max - team.filled);
  return (
    <section className="card team" aria-labelledby={`team-${letter}`}>
      <h2 id={`team-${letter}`}>
        Time {letter}: {team.name}
      </h2>
      <p className="counts">
        {team.filled} de {team.max} jogadores ·{' '}
        {free === 0 ? 'completo' : plural(free, 'vaga livre', 'vagas livres')}
      </p>
      <ol className="players">
        {team.players.map((player) => (
          <li key={player.id} className={player.id === me ? 'me' : undefined}>
            {player.name} <span className="meta">@{player.userName}</span>
            {player.id === me ? <strong> (você)</strong> : null}
          </li>
        ))}
        {Array.from({ length: free }, (_, i) => (
          <li key={`free-${i}`} className="free-spot">
            Vaga livre
          </li>
        ))}
      </ol>
    </section>
  );
}

export function MatchPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const [editing, setEditing] = useState(false);
  const { status, setStatus, error, setError, act } = useAnnouncements();
  const created = useFlash('criada', 'Partida criada. Inscreva-se e convide a turma!');

  const match = useQuery(trpc.matches.get.queryOptions({ id }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.matches.pathKey() });
  const options = { onSettled: refresh };
  const subscribe = useMutation(trpc.matches.subscribe.mutationOptions(options));
  const unsubscribe = useMutation(trpc.matches.unsubscribe.mutationOptions(options));
  const switchTeam = useMutation(trpc.matches.switch.mutationOptions(options));
  const update = useMutation(trpc.matches.update.mutationOptions(options));
  const remove = useMutation(trpc.matches.delete.mutationOptions());

  if (match.isPending || match.error) {
    return (
      <PendingPage
        title="Partida"
        error={match.error}
        back={<Link to="/partidas">Voltar às partidas</Link>}
      />
    );
  }

  const data = match.data;
  const mine = data.players.find((p) => p.id === user?.id);
  const teamName = (letter: 'A' | 'B') => (letter === 'A' ? data.teamA.name : data.teamB.name);
  const other = mine?.team === 'A' ? data.teamB : data.teamA;
  const mayManage = user && (user.id === data.authorId || user.perfil === 'ADMIN');
  const busy =
    subscribe.isPending || unsubscribe.isPending || switchTeam.isPending || update.isPending;
  const free = data.spots.totalMax - data.spots.totalFilled;

  return (
    <Page title={data.title}>
      <p>
        <Link to="/partidas">← Voltar às partidas</Link>
      </p>
      <StatusMessage>{status ?? created}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>
      <div className="card">
        <p className="meta">
          <StatusBadge status={data.MatchStatus} />{' '}
          <time dateTime={data.MatchDate}>{formatDateTime(data.MatchDate)}</time> · {data.location}{' '}
          · criada por @{data.author.userName}
        </p>
        {data.description ? <p className="content">{data.description}</p> : null}
        <p className="counts" id="spots">
          {data.spots.totalFilled} de {data.spots.totalMax} vagas preenchidas
          {free > 0 ? ` · ${plural(free, 'vaga livre', 'vagas livres')}` : ' · partida lotada'}
        </p>
        <div className="row wrap actions">
          {mine ? (
            <>
              <p>
                Você está no{' '}
                <strong>
                  time {mine.team}: {teamName(mine.team)}
                </strong>
                .
              </p>
              <button
                type="button"
                disabled={busy || other.filled >= other.max}
                onClick={() =>
                  void act(
                    () => switchTeam.mutateAsync({ id }),
                    (r) => `Você agora está no time ${r.team}: ${teamName(r.team)}.`,
                  )
                }
              >
                Trocar para o time {mine.team === 'A' ? 'B' : 'A'}
              </button>
              <button
                type="button"
                disabled={busy}
                onClick={() =>
                  void act(
                    () => unsubscribe.mutateAsync({ id }),
                    () => 'Você saiu da partida.',
                  )
                }
              >
                Sair da partida
              </button>
            </>
          ) : data.isSubscriptionOpen ? (
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() =>
                void act(
                  () => subscribe.mutateAsync({ id }),
                  (r) => `Inscrição feita: você está no time ${r.team}: ${r.teamName}.`,
                )
              }
            >
              Inscrever-me
            </button>
          ) : (
            <p>
              {free === 0 ? 'Partida lotada: não há vagas.' : 'As inscrições estão encerradas.'}
            </p>
          )}
        </div>
      </div>

      <div className="teams">
        <TeamCard team={data.teamA} letter="A" me={user?.id} />
        <TeamCard team={data.teamB} letter="B" me={user?.id} />
      </div>

      {mayManage ? (
        <section className="card" aria-labelledby="manage-title">
          <h2 id="manage-title">Organização</h2>
          <div className="row wrap">
            {TRANSITIONS[data.MatchStatus].map((t) =>
              t.confirm ? (
                <ConfirmButton
                  key={t.to}
                  label={t.label}
                  question={t.confirm}
                  confirmLabel={`Sim, ${t.label.toLowerCase()}`}
                  disabled={busy}
                  onConfirm={() =>
                    void act(
                      () => update.mutateAsync({ id, MatchStatus: t.to }),
                      () => `Situação: ${MATCH_STATUS_LABELS[t.to]}.`,
                    )
                  }
                />
              ) : (
                <button
                  key={t.to}
                  type="button"
                  disabled={busy}
                  onClick={() =>
                    void act(
                      () => update.mutateAsync({ id, MatchStatus: t.to }),
                      () => `Situação: ${MATCH_STATUS_LABELS[t.to]}.`,
                    )
                  }
                >
                  {t.label}
                </button>
              ),
            )}
            {!editing ? (
              <button type="button" onClick={() => setEditing(true)}>
                Editar partida
              </button>
            ) : null}
            <ConfirmButton
              label="Excluir partida"
              question="Excluir esta partida e todas as inscrições?"
              confirmLabel="Sim, excluir"
              className="danger"
              onConfirm={() =>
                void remove.mutateAsync({ id }).then(
                  async () => {
                    await refresh();
                    navigate('/partidas');
                  },
                  (failure: unknown) => setError(formMessage(failure)),
                )
              }
            />
          </div>
          {editing ? (
            <MatchForm
              match={data}
              submitLabel="Salvar alterações"
              onCancel={() => setEditing(false)}
              onUpdate={async (fields) => {
                await update.mutateAsync({ id, ...fields });
                setEditing(false);
                setStatus('Partida atualizada.');
              }}
            />
          ) : null}
        </section>
      ) : null}
    </Page>
  );
}
