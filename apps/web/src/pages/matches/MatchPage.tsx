import { SPORT_NAMES, updateMatchInput } from '@campus/core/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorMessage, StatusMessage } from '../../components/Alert';
import { Page, PendingPage } from '../../components/Page';
import { EventTime } from '../../components/Times';
import { useAnnouncements } from '../../components/useAnnouncements';
import { Icon } from '../../components/Icon';
import { ShareButton } from '../../components/ShareButton';
import { openCalendarFile } from '../../lib/calendar';
import { Link, navigate, useFlash } from '../../lib/router';
import { useTRPC, useTRPCClient, type RouterOutputs } from '../../lib/trpc';
import { checked } from '../../lib/validate';
import { useLiveStream } from '../../session/useLiveStream';
import { useSession } from '../../session/SessionProvider';
import { MatchManagement } from './MatchManagement';
import { Score, StatusBadge } from './MatchesPage';
import { SeatActions } from './SeatActions';
import { TeamCard } from './TeamCard';

type Match = RouterOutputs['matches']['get'];

/**
 * Whether the signed-in user may manage the match, as the server decides it: its author, an
 * OWNER/ADMIN of its organising group, or a site ADMIN (core matches/service.ts).
 */
function useMayManage(match: Match | undefined) {
  const trpc = useTRPC();
  const { user } = useSession();
  const groupId = match?.groupId ?? null;
  const group = useQuery({
    ...trpc.groups.get.queryOptions({ id: groupId ?? '' }),
    enabled: groupId !== null,
  });
  if (!match || !user) return false;
  if (user.id === match.authorId || user.perfil === 'ADMIN') return true;
  return groupId !== null && (group.data?.myRole === 'OWNER' || group.data?.myRole === 'ADMIN');
}

export function MatchPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { status, setStatus, error, setError, act } = useAnnouncements();
  const created = useFlash('criada', 'Partida criada. Inscreva-se e convide a turma!');

  const match = useQuery(trpc.matches.get.queryOptions({ id }));
  const mayManage = useMayManage(match.data);
  // Spots, teams and status follow the match live (other players joining, an edit, a cancel).
  const client = useTRPCClient();
  useLiveStream<{ kind: 'match'; match: Match } | { kind: 'deleted' }>(
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
  const update = useMutation(trpc.matches.update.mutationOptions({ onSettled: refresh }));

  /** "Adicionar à agenda": the API's calendar file, handed to the phone's calendar. */
  const addToCalendar = async () => {
    const text = await client.calendar.match.query({ id });
    openCalendarFile(text);
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
  return (
    <Page
      title={data.title}
      actions={
        <ShareButton
          title={data.title}
          path={`/partidas/${id}`}
          label={`a partida ${data.title}`}
        />
      }
    >
      <p>
        <Link to="/partidas">← Voltar às partidas</Link>
      </p>
      <StatusMessage>{status ?? created}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>
      <div className="card">
        <p className="meta">
          <StatusBadge status={data.MatchStatus} /> <EventTime iso={data.MatchDate} /> ·{' '}
          {data.location} · criada por @{data.author.userName}
          {data.sport ? ` · ${SPORT_NAMES[data.sport]}` : ''}
          {data.group ? ` · organizada por ${data.group}${data.groupVerified ? ' ✓' : ''}` : ''}
        </p>
        <Score match={data} />
        {data.description ? <p className="content">{data.description}</p> : null}
        <SeatActions match={data} act={act}>
          {data.MatchStatus === 'EM_BREVE' ? (
            <button
              type="button"
              className="with-icon"
              onClick={() => void act(addToCalendar, () => 'Abrindo na sua agenda…')}
            >
              <Icon name="calendar" />
              Adicionar à agenda
            </button>
          ) : null}
        </SeatActions>
      </div>

      <div className="teams">
        <TeamCard
          team={data.teamA}
          letter="A"
          me={user?.id}
          open={data.MatchStatus === 'EM_BREVE'}
        />
        <TeamCard
          team={data.teamB}
          letter="B"
          me={user?.id}
          open={data.MatchStatus === 'EM_BREVE'}
        />
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
          busy={update.isPending}
          act={act}
          onError={setError}
          onChangeStatus={(to) => update.mutateAsync({ id, MatchStatus: to })}
          onUpdate={async (fields) => {
            await update.mutateAsync(checked(updateMatchInput, { id, ...fields }, 'en'));
            setStatus('Partida atualizada.');
          }}
          onDeleted={async () => {
            await refresh();
            navigate('/partidas?excluida=1');
          }}
        />
      ) : null}
    </Page>
  );
}
