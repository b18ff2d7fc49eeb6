import { plural, teamRef } from '../../lib/format';
import { Avatar } from '../../components/media/Avatar';
import type { RouterOutputs } from '../../lib/trpc';

type Team = RouterOutputs['matches']['get']['teamA'];

/** One team of a match: its players (the viewer marked) and its free spots. */
export function TeamCard({
  team,
  letter,
  me,
  open,
}: {
  team: Team;
  letter: 'A' | 'B';
  me: string | undefined;
  /** Whether the match still takes players (EM_BREVE): free spots are shown only then. */
  open: boolean;
}) {
  const free = open ? Math.max(0, team.max - team.filled) : 0;
  return (
    <section className="card team" aria-labelledby={`team-${letter}`}>
      <h2 id={`team-${letter}`}>Time {teamRef(letter, team.name)}</h2>
      <p className="counts">
        {open ? (
          <>
            {team.filled} de {team.max} jogadores ·{' '}
            {free === 0 ? 'completo' : plural(free, 'vaga livre', 'vagas livres')}
          </>
        ) : (
          plural(team.filled, 'jogador', 'jogadores')
        )}
      </p>
      <ol className="players">
        {team.players.map((player) => (
          <li key={player.id} className={player.id === me ? 'me' : undefined}>
            <Avatar url={player.avatarUrl} name={player.name} size={24} /> {player.name}{' '}
            <span className="meta">@{player.userName}</span>
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
