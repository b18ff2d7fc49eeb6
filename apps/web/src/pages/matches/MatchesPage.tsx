import { createMatchInput, SPORT_NAMES, SPORTS_IN_ORDER, type Sport } from '@campus/core/schemas';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { StatusMessage } from '../../components/Alert';
import { Page } from '../../components/Page';
import { PagedList } from '../../components/PagedList';
import { MATCH_STATUS_LABELS, plural, teamTitle } from '../../lib/format';
import { EventTime } from '../../components/Times';
import { Link, navigate, pageFrom, useFlash, useLocation } from '../../lib/router';
import { useTRPC, type RouterInputs, type RouterOutputs } from '../../lib/trpc';
import { useSession } from '../../session/SessionProvider';
import { SPORT_CHOICES } from './MatchExtraFields';
import { MatchForm } from './MatchForm';
import { Options } from '../../components/Options';
import { checked } from '../../lib/validate';

type MatchItem = RouterOutputs['matches']['list']['data'][number];
type MatchStatus = NonNullable<RouterInputs['matches']['list']['status']>;
const STATUSES = Object.keys(MATCH_STATUS_LABELS) as MatchStatus[];

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge badge--${status.toLowerCase()}`}>
      {MATCH_STATUS_LABELS[status] ?? status}
    </span>
  );
}

/** The score of a finished match, when its author recorded one. */
export function Score({
  match,
}: {
  match: Pick<MatchItem, 'teamAScore' | 'teamBScore' | 'teamNameA' | 'teamNameB'>;
}) {
  if (match.teamAScore === null || match.teamBScore === null) return null;
  return (
    <p className="score">
      Placar: {teamTitle('A', match.teamNameA)} <strong>{match.teamAScore}</strong> ×{' '}
      <strong>{match.teamBScore}</strong> {teamTitle('B', match.teamNameB)}
    </p>
  );
}

/** Where the caller stands in a match: in a team, or on the waiting list. */
function MyPlace({ match }: { match: Pick<MatchItem, 'myTeam' | 'myWaitlistPosition'> }) {
  if (match.myTeam) return <span className="badge">Você joga no time {match.myTeam}</span>;
  if (match.myWaitlistPosition !== null)
    return <span className="badge">Lista de espera: {match.myWaitlistPosition}º</span>;
  return null;
}

/** A match in a list: title, status, my place, date, place and spots. */
export function MatchItemCard({ match }: { match: MatchItem }) {
  return (
    <li>
      <article className="card match-item">
        <h3>
          <Link to={`/partidas/${match.id}`}>{match.title}</Link>
        </h3>
        <p className="meta">
          <StatusBadge status={match.MatchStatus} /> <MyPlace match={match} />{' '}
          {match.sport ? `${SPORT_NAMES[match.sport]} · ` : ''}
          <EventTime iso={match.MatchDate} /> · {match.location}
          {match.group ? ` · ${match.group}${match.groupVerified ? ' ✓' : ''}` : ''}
        </p>
        <p className="counts">
          {match.spots.filled} de {match.maxPlayers} vagas preenchidas ·{' '}
          {match.isSubscriptionOpen ? (
            <strong>{plural(match.spots.open, 'vaga livre', 'vagas livres')}</strong>
          ) : match.spots.open === 0 ? (
            `lotada${match.waitlistCount ? ` · ${plural(match.waitlistCount, 'na lista de espera', 'na lista de espera')}` : ''}`
          ) : (
            'inscrições encerradas'
          )}
        </p>
        <Score match={match} />
      </article>
    </li>
  );
}

export function MatchesPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { query } = useLocation();
  const page = pageFrom(query);
  const status = STATUSES.find((s) => s === query.get('status'));
  const sport = SPORTS_IN_ORDER.find((s) => s === query.get('esporte'));
  const mine = query.get('minhas') === '1';
  const [note, setNote] = useState<string | null>(null);
  const deleted = useFlash('excluida', 'Partida excluída.');

  const list = useQuery({
    ...trpc.matches.list.queryOptions({
      page,
      limit: 10,
      ...(status ? { status } : {}),
      ...(sport ? { sport } : {}),
      ...(mine ? { mine: true } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const create = useMutation(trpc.matches.create.mutationOptions());
  const go = (next: {
    page?: number;
    status?: string | undefined;
    sport?: Sport | undefined;
    mine?: boolean;
  }) => {
    const params = new URLSearchParams();
    const nextStatus = 'status' in next ? next.status : status;
    if (nextStatus) params.set('status', nextStatus);
    const nextSport = 'sport' in next ? next.sport : sport;
    if (nextSport) params.set('esporte', nextSport);
    if (next.mine ?? mine) params.set('minhas', '1');
    if (next.page && next.page > 1) params.set('pagina', String(next.page));
    const search = params.toString();
    navigate(`/partidas${search ? `?${search}` : ''}`);
  };

  return (
    <Page title="Partidas">
      <StatusMessage>{note ?? deleted}</StatusMessage>
      <details className="card composer">
        <summary>Criar uma partida</summary>
        <MatchForm
          submitLabel="Criar partida"
          onCreate={async (fields) => {
            setNote(null);
            const input = { ...fields, userId: user!.id };
            const match = await create.mutateAsync(checked(createMatchInput, input, 'en'));
            await queryClient.invalidateQueries({ queryKey: trpc.matches.pathKey() });
            navigate(`/partidas/${match.id}?criada=1`);
          }}
        />
      </details>

      <div className="filters">
        <label htmlFor="match-status">Situação</label>
        <select
          id="match-status"
          value={status ?? ''}
          onChange={(e) => go({ status: e.target.value || undefined, page: 1 })}
        >
          <option value="">Todas</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {MATCH_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
        <label htmlFor="match-sport">Esporte</label>
        <select
          id="match-sport"
          value={sport ?? ''}
          onChange={(e) =>
            go({ sport: SPORTS_IN_ORDER.find((s) => s === e.target.value), page: 1 })
          }
        >
          <Options empty="Todos" choices={SPORT_CHOICES} />
        </select>
        <label className="check">
          <input
            type="checkbox"
            role="switch"
            checked={mine}
            onChange={(e) => go({ mine: e.target.checked, page: 1 })}
          />
          Minhas partidas
        </label>
      </div>

      <PagedList
        id="matches-title"
        heading="Lista de partidas"
        loading="Carregando partidas…"
        empty="Nenhuma partida encontrada."
        pagesLabel="Páginas de partidas"
        query={list}
        page={page}
        onPage={(p) => go({ page: p })}
      >
        {(match) => <MatchItemCard key={match.id} match={match} />}
      </PagedList>
    </Page>
  );
}
