import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton';
import { plural, teamRef } from '../../lib/format';
import { useTRPC, type RouterOutputs } from '../../lib/trpc';
import { useSession } from '../../session/SessionProvider';

type Match = RouterOutputs['matches']['get'];
/** What a match that no longer takes actions says instead (by MatchStatus). */
const CLOSED: Record<string, string> = {
  EM_ANDAMENTO: 'A partida já começou.',
  FINALIZADA: 'Partida encerrada.',
  CANCELADA: 'Esta partida foi cancelada.',
};

type Act = <T>(action: () => Promise<T>, done: string | ((result: T) => string)) => Promise<void>;

/**
 * Where the caller stands in a match and what they can do about it: join, switch team, leave
 * (confirmed: the seat goes to the next in line), or the waiting list (join, leave, confirmed).
 */
export function SeatActions({
  match,
  act,
  children,
}: {
  match: Match;
  act: Act;
  /** More buttons for the same row (e.g. "Adicionar à agenda"). */
  children?: ReactNode;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const options = {
    onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.matches.pathKey() }),
  };
  const subscribe = useMutation(trpc.matches.subscribe.mutationOptions(options));
  const unsubscribe = useMutation(trpc.matches.unsubscribe.mutationOptions(options));
  const switchTeam = useMutation(trpc.matches.switch.mutationOptions(options));
  const joinWaitlist = useMutation(trpc.matches.joinWaitlist.mutationOptions(options));
  const leaveWaitlist = useMutation(trpc.matches.leaveWaitlist.mutationOptions(options));
  const busy = [subscribe, unsubscribe, switchTeam, joinWaitlist, leaveWaitlist].some(
    (mutation) => mutation.isPending,
  );

  const id = match.id;
  const ref = (letter: 'A' | 'B') =>
    teamRef(letter, letter === 'A' ? match.teamA.name : match.teamB.name);
  // From the players (a live update carries the match, not necessarily as this reader sees it).
  const mine = match.players.find((player) => player.id === user?.id)?.team;
  const other = mine === 'A' ? match.teamB : match.teamA;
  const position = match.myWaitlistPosition;
  const free = match.spots.totalMax - match.spots.totalFilled;
  /** A button that runs one of the mutations above and announces its outcome. */
  const button = (label: string, onClick: () => Promise<void>, primary = false) => (
    <button
      type="button"
      className={primary ? 'primary' : undefined}
      disabled={busy}
      onClick={() => void onClick()}
    >
      {label}
    </button>
  );
  const leave = (label: string, question: string, onConfirm: () => Promise<void>) => (
    <ConfirmButton
      label={label}
      question={question}
      confirmLabel="Sim, sair"
      disabled={busy}
      onConfirm={() => void onConfirm()}
    />
  );

  // Only a match still to come takes actions: started, finished or cancelled, it offers none.
  if (match.MatchStatus !== 'EM_BREVE') {
    return (
      <p className="counts" id="spots">
        {CLOSED[match.MatchStatus] ?? 'As inscrições estão encerradas.'}
        {mine
          ? ` Você ${match.MatchStatus === 'CANCELADA' ? 'estava' : 'está'} no time ${ref(mine)}.`
          : ''}
      </p>
    );
  }

  let content: ReactNode;
  if (mine) {
    content = (
      <>
        <p>
          Você está no <strong>time {ref(mine)}</strong>.
        </p>
        <button
          type="button"
          disabled={busy || other.filled >= other.max}
          onClick={() =>
            void act(
              () => switchTeam.mutateAsync({ id }),
              (r) => `Você agora está no time ${ref(r.team)}.`,
            )
          }
        >
          Trocar para o time {mine === 'A' ? 'B' : 'A'}
        </button>
        {leave('Sair da partida', 'Sair da partida? Sua vaga fica livre para outra pessoa.', () =>
          act(() => unsubscribe.mutateAsync({ id }), 'Você saiu da partida.'),
        )}
      </>
    );
  } else if (match.isSubscriptionOpen) {
    content = button(
      'Inscrever-me',
      () =>
        act(
          () => subscribe.mutateAsync({ id }),
          (r) => `Inscrição feita: você está no time ${teamRef(r.team, r.teamName)}.`,
        ),
      true,
    );
  } else if (position !== null) {
    content = (
      <>
        <p id="my-waitlist">
          Você está na lista de espera: <strong>posição {position}</strong>. Se abrir uma vaga, você
          entra na partida e recebe um aviso.
        </p>
        {leave(
          'Sair da lista de espera',
          `Sair da lista de espera? Você perde a posição ${position}.`,
          () => act(() => leaveWaitlist.mutateAsync({ id }), 'Você saiu da lista de espera.'),
        )}
      </>
    );
  } else if (free === 0 && match.MatchStatus === 'EM_BREVE') {
    content = (
      <>
        <p>Partida lotada.</p>
        {button(
          'Entrar na lista de espera',
          () =>
            act(
              () => joinWaitlist.mutateAsync({ id }),
              (r) => `Você entrou na lista de espera: posição ${r.position}.`,
            ),
          true,
        )}
      </>
    );
  } else {
    content = (
      <p>{free === 0 ? 'Partida lotada: não há vagas.' : 'As inscrições estão encerradas.'}</p>
    );
  }

  return (
    <>
      <p className="counts" id="spots">
        {match.spots.totalFilled} de {match.spots.totalMax} vagas preenchidas
        {free > 0 ? ` · ${plural(free, 'vaga livre', 'vagas livres')}` : ' · partida lotada'}
      </p>
      <div className="row wrap actions">
        {content}
        {children}
      </div>
    </>
  );
}
