import { plural, teamRef } from '../../lib/format';
import type { RouterOutputs } from '../../lib/trpc';

type Team = RouterOutputs['matches']['get']['teamA'];

/** One team of a match: its players (the viewer marked) and its free spots. */
export function TeamCard({
  team,
  letter,
  me,
}: {
  team: Team;
  letter: 'A' | 'B';
  me: string | undefined;
}) {
  const free = Math.max(0, team.max - team.filled);
  return (
    <section className="card team" aria-labelledby={`team-${letter}`}>
      <h2 id={`team-${letter}`}>Time {teamRef(letter, team.name)}</h2>
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
