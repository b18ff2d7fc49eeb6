import { LIMITS, SPORT_NAMES, SPORTS_IN_ORDER } from '@campus/core/schemas';
import { Field } from '../../components/Field';
import type { useFormValues } from '../../components/useForm';
import { teamTitle } from '../../lib/format';
import type { RouterOutputs } from '../../lib/trpc';
import { ManagedGroupField } from '../feed/ManagedGroupField';
import { Options } from '../../components/Options';
import type { MatchValues } from './MatchForm';

type Match = RouterOutputs['matches']['get'];

/** The sports as a select offers them, in the API's order. */
export const SPORT_CHOICES = SPORTS_IN_ORDER.map((sport) => ({
  value: sport,
  label: SPORT_NAMES[sport],
}));

/**
 * The sport, the organising group (one the user manages: the server allows no other) and, once
 * the match is FINALIZADA, the score.
 */
export function MatchExtraFields({
  match,
  form,
  errors,
}: {
  match: Match | undefined;
  form: ReturnType<typeof useFormValues<MatchValues>>;
  errors: Record<string, string>;
}) {
  const score = LIMITS.match.score;

  return (
    <>
      <div className="row wrap">
        <Field label="Esporte" name="sport" error={errors.sport}>
          {(c) => (
            <select {...c} {...form.bind('sport')}>
              <Options empty="Não informado" choices={SPORT_CHOICES} />
            </select>
          )}
        </Field>
        <ManagedGroupField
          label="Organizada por"
          none="Só por você"
          hint="Um grupo em que você é dono ou administrador."
          current={match ? { id: match.groupId, name: match.group } : undefined}
          error={errors.groupId}
          control={form.bind('groupId')}
        />
      </div>
      {match?.MatchStatus === 'FINALIZADA' ? (
        <fieldset>
          <legend>Placar</legend>
          <div className="row wrap">
            {(['A', 'B'] as const).map((letter) => (
              <Field
                key={letter}
                label={`Placar: ${teamTitle(letter, letter === 'A' ? match.teamNameA : match.teamNameB)}`}
                name={`team${letter}Score`}
                error={errors[`team${letter}Score`]}
              >
                {(c) => (
                  <input
                    {...c}
                    {...form.bind(`team${letter}Score`)}
                    type="number"
                    min={score.min}
                    max={score.max}
                    step={1}
                    inputMode="numeric"
                  />
                )}
              </Field>
            ))}
          </div>
        </fieldset>
      ) : null}
    </>
  );
}
