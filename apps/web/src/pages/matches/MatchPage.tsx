import { updateMatchInput } from '@campus/core/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorMessage, StatusMessage } from '../../components/Alert';
import { Page, PendingPage } from '../../components/Page';
import { useAnnouncements } from '../../components/useAnnouncements';
import { formatDateTime, plural } from '../../lib/format';
import { Link, navigate, useFlash } from '../../lib/router';
import { useTRPC, useTRPCClient, type RouterOutputs } from '../../lib/trpc';
import { checked } from '../../lib/validate';
import { useLiveStream } from '../../session/useLiveStream';
import { useSession } from '../../session/SessionProvider';
import { MatchManagement } from './MatchManagement';
import { StatusBadge } from './MatchesPage';
import { TeamCard } from './TeamCard';

export function MatchPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { status, setStatus, error, setError, act } = useAnnouncements();
  const created = useFlash('criada', 'Partida criada. Inscreva-se e convide a turma!');

  const match = useQuery(trpc.matches.get.queryOptions({ id }));
  // Spots, teams and status follow the match live (other players joining, an edit, a cancel).
  const client = useTRPCClient();
  useLiveStream<{ kind: 'match'; match: RouterOutputs['matches']['get'] } | { kind: 'deleted' }>(
    (handlers) => client.streams.match.subscribe({ id }, handlers),
    (event) => {
      if (event.kind === 'match') {
        queryClient.setQueryData(trpc.matches.get.queryKey({ id }), event.match);
      } else {
        void queryClient.invalidateQueries({ queryKey: trpc.matches.get.queryKey({ id }) });
      }
    },
    id,
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.matches.pathKey() });
  const options = { onSettled: refresh };
  const subscribe = useMutation(trpc.matches.subscribe.mutationOptions(options));
  const unsubscribe = useMutation(trpc.matches.unsubscribe.mutationOptions(options));
  const switchTeam = useMutation(trpc.matches.switch.mutationOptions(options));
  const update = useMutation(trpc.matches.update.mutationOptions(options));

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
        <MatchManagement
          match={data}
          busy={busy}
          act={act}
          onError={setError}
          onChangeStatus={(to) => update.mutateAsync({ id, MatchStatus: to })}
          onUpdate={async (fields) => {
            await update.mutateAsync(checked(updateMatchInput, { id, ...fields }, 'en'));
            setStatus('Partida atualizada.');
          }}
          onDeleted={async () => {
            await refresh();
            navigate('/partidas');
          }}
        />
      ) : null}
    </Page>
  );
}
