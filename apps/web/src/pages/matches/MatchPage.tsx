import { SPORT_NAMES, updateMatchInput } from '@campus/core/schemas';
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
import { Score, StatusBadge } from './MatchesPage';
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
  const joinWaitlist = useMutation(trpc.matches.joinWaitlist.mutationOptions(options));
  const leaveWaitlist = useMutation(trpc.matches.leaveWaitlist.mutationOptions(options));

  /** "Adicionar à agenda": the API's calendar file, saved by the browser (the token stays in a header). */
  const addToCalendar = async () => {
    const text = await client.calendar.match.query({ id });
    const url = URL.createObjectURL(new Blob([text], { type: 'text/calendar' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `partida-${id}.ics`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
    return text;
  };

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
    subscribe.isPending ||
    unsubscribe.isPending ||
    switchTeam.isPending ||
    update.isPending ||
    joinWaitlist.isPending ||
    leaveWaitlist.isPending;
  const position = data.myWaitlistPosition;
  const open = data.MatchStatus === 'EM_BREVE';
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
          {data.sport ? ` · ${SPORT_NAMES[data.sport]}` : ''}
          {data.group ? ` · organizada por ${data.group}${data.groupVerified ? ' ✓' : ''}` : ''}
        </p>
        <Score match={data} />
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
          ) : position !== null ? (
            <>
              <p id="my-waitlist">
                Você está na lista de espera: <strong>posição {position}</strong>. Se abrir uma
                vaga, você entra na partida e recebe um aviso.
              </p>
              <button
                type="button"
                disabled={busy}
                onClick={() =>
                  void act(
                    () => leaveWaitlist.mutateAsync({ id }),
                    () => 'Você saiu da lista de espera.',
                  )
                }
              >
                Sair da lista de espera
              </button>
            </>
          ) : free === 0 && open ? (
            <>
              <p>Partida lotada.</p>
              <button
                type="button"
                className="primary"
                disabled={busy}
                onClick={() =>
                  void act(
                    () => joinWaitlist.mutateAsync({ id }),
                    (r) => `Você entrou na lista de espera: posição ${r.position}.`,
                  )
                }
              >
                Entrar na lista de espera
              </button>
            </>
          ) : (
            <p>
              {free === 0 ? 'Partida lotada: não há vagas.' : 'As inscrições estão encerradas.'}
            </p>
          )}
          <button
            type="button"
            onClick={() => void act(addToCalendar, () => 'Arquivo da agenda baixado (.ics).')}
          >
            Adicionar à agenda
          </button>
        </div>
      </div>

      <div className="teams">
        <TeamCard team={data.teamA} letter="A" me={user?.id} />
        <TeamCard team={data.teamB} letter="B" me={user?.id} />
      </div>

      {data.waitlist.length > 0 ? (
        <section className="card" aria-labelledby="waitlist-title">
          <h2 id="waitlist-title">Lista de espera</h2>
          <ol className="waitlist">
            {data.waitlist.map((w) => (
              <li key={w.id}>
                {w.name} (@{w.userName}){w.id === user?.id ? ' — você' : ''}
              </li>
            ))}
          </ol>
        </section>
      ) : null}

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
