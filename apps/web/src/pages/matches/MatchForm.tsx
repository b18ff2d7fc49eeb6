import { LIMITS, SPORTS_IN_ORDER, type Sport } from '@campus/core/schemas';
import { ErrorMessage } from '../../components/Alert';
import { Field } from '../../components/Field';
import { FormActions } from '../../components/FormActions';
import { useFormValues, useSubmit } from '../../components/useForm';
import { sameNames } from '../../lib/errors';
import { fromLocalInput, ownTeamName, toLocalInput } from '../../lib/format';
import type { RouterInputs, RouterOutputs } from '../../lib/trpc';
import { MatchExtraFields } from './MatchExtraFields';

const L = LIMITS.match;

type Match = RouterOutputs['matches']['get'];
type CreateFields = Omit<RouterInputs['matches']['create'], 'userId'>;
type UpdateFields = Omit<RouterInputs['matches']['update'], 'id'>;

const FIELDS = sameNames(
  'title',
  'description',
  'maxPlayers',
  'MatchDate',
  'location',
  'teamNameA',
  'teamNameB',
  'sport',
  'groupId',
  'teamAScore',
  'teamBScore',
);

export function initialMatchValues(match?: Match) {
  return {
    title: match?.title ?? '',
    description: match?.description ?? '',
    maxPlayers: String(match?.maxPlayers ?? 10),
    MatchDate: toLocalInput(match?.MatchDate),
    location: match?.location ?? '',
    // A default name (TIME_A) is no name: the field starts empty, as it was left.
    teamNameA: ownTeamName('A', match?.teamNameA),
    teamNameB: ownTeamName('B', match?.teamNameB),
    sport: match?.sport ?? '',
    groupId: match?.groupId ?? '',
    teamAScore: match?.teamAScore?.toString() ?? '',
    teamBScore: match?.teamBScore?.toString() ?? '',
  };
}
export type MatchValues = ReturnType<typeof initialMatchValues>;

const toNumber = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));
const sportOf = (value: string): Sport | undefined =>
  SPORTS_IN_ORDER.find((sport) => sport === value);

/** A new match's fields; empty team names take the API's defaults, shown as "Time A"/"Time B". */
export function toCreateFields(values: MatchValues): CreateFields {
  const sport = sportOf(values.sport);
  return {
    title: values.title,
    ...(values.description.trim() ? { description: values.description } : {}),
    maxPlayers: toNumber(values.maxPlayers),
    MatchDate: fromLocalInput(values.MatchDate) ?? '',
    location: values.location,
    ...(values.teamNameA.trim() ? { teamNameA: values.teamNameA } : {}),
    ...(values.teamNameB.trim() ? { teamNameB: values.teamNameB } : {}),
    ...(sport ? { sport } : {}),
    ...(values.groupId ? { groupId: values.groupId } : {}),
  };
}

/**
 * Only the fields that changed (the date may move only before the match starts, so an edit of
 * the title must not send it); an emptied description, sport or group is removed (null), an
 * emptied team name goes back to the default.
 */
export function toUpdateFields(values: MatchValues, before: MatchValues): UpdateFields {
  const changed: UpdateFields = {};
  const differs = (name: keyof MatchValues) => values[name] !== before[name];
  if (differs('title')) changed.title = values.title;
  if (differs('description'))
    changed.description = values.description.trim() ? values.description : null;
  if (differs('maxPlayers')) changed.maxPlayers = toNumber(values.maxPlayers);
  if (differs('MatchDate')) changed.MatchDate = fromLocalInput(values.MatchDate) ?? '';
  if (differs('location')) changed.location = values.location;
  if (differs('teamNameA'))
    changed.teamNameA = values.teamNameA.trim() ? values.teamNameA : 'TIME_A';
  if (differs('teamNameB'))
    changed.teamNameB = values.teamNameB.trim() ? values.teamNameB : 'TIME_B';
  if (differs('sport')) changed.sport = sportOf(values.sport) ?? null;
  if (differs('groupId')) changed.groupId = values.groupId || null;
  if (differs('teamAScore') || differs('teamBScore')) {
    changed.teamAScore = toNumber(values.teamAScore);
    changed.teamBScore = toNumber(values.teamBScore);
  }
  return changed;
}

interface MatchFormProps {
  match?: Match;
  submitLabel: string;
  onCreate?: (fields: CreateFields) => Promise<unknown>;
  onUpdate?: (fields: UpdateFields) => Promise<unknown>;
  onCancel?: () => void;
}

export function MatchForm({ match, submitLabel, onCreate, onUpdate, onCancel }: MatchFormProps) {
  const before = initialMatchValues(match);
  const form = useFormValues(before);
  const { errors, message, busy, formRef, handle } = useSubmit(FIELDS);
  const submit = handle(async () => {
    if (match) {
      const fields = toUpdateFields(form.values, before);
      if (Object.keys(fields).length === 0) onCancel?.();
      else await onUpdate?.(fields);
    } else {
      await onCreate?.(toCreateFields(form.values));
      form.reset();
    }
  });

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="stack">
      <ErrorMessage>{message}</ErrorMessage>
      <Field
        label="Título"
        name="title"
        error={errors.title}
        required
        hint={`De ${L.title.min} a ${L.title.max} caracteres.`}
      >
        {(c) => (
          <input
            {...c}
            {...form.bind('title')}
            minLength={L.title.min}
            maxLength={L.title.max}
            required
          />
        )}
      </Field>
      <Field label="Descrição" name="description" error={errors.description}>
        {(c) => (
          <textarea {...c} {...form.bind('description')} rows={3} maxLength={L.description.max} />
        )}
      </Field>
      <div className="row wrap">
        <Field
          label="Número de jogadores"
          name="maxPlayers"
          error={errors.maxPlayers}
          required
          hint={`De ${L.maxPlayers.min} a ${L.maxPlayers.max}, divididos entre os dois times.`}
        >
          {(c) => (
            <input
              {...c}
              {...form.bind('maxPlayers')}
              type="number"
              min={L.maxPlayers.min}
              max={L.maxPlayers.max}
              step={1}
              inputMode="numeric"
              required
            />
          )}
        </Field>
        <Field
          label="Data e hora"
          name="MatchDate"
          error={errors.MatchDate}
          required
          hint="No seu fuso horário."
        >
          {(c) => <input {...c} {...form.bind('MatchDate')} type="datetime-local" required />}
        </Field>
      </div>
      <Field label="Local" name="location" error={errors.location} required>
        {(c) => <input {...c} {...form.bind('location')} maxLength={L.location.max} required />}
      </Field>
      <div className="row wrap">
        {(['A', 'B'] as const).map((letter) => (
          <Field
            key={letter}
            label={`Nome do time ${letter}`}
            name={`teamName${letter}`}
            error={errors[`teamName${letter}`]}
            hint={`Em branco: “Time ${letter}”.`}
          >
            {(c) => <input {...c} {...form.bind(`teamName${letter}`)} maxLength={L.teamName.max} />}
          </Field>
        ))}
      </div>
      <MatchExtraFields match={match} form={form} errors={errors} />
      <FormActions busy={busy} submitLabel={submitLabel} {...(onCancel ? { onCancel } : {})} />
    </form>
  );
}
