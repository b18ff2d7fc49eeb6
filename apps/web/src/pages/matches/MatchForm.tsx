import { LIMITS } from '@campus/core/schemas';
import { ErrorMessage } from '../../components/Alert';
import { Field } from '../../components/Field';
import { FormActions } from '../../components/FormActions';
import { useFormValues, useSubmit } from '../../components/useForm';
import { sameNames } from '../../lib/errors';
import { fromLocalInput, toLocalInput } from '../../lib/format';
import type { RouterInputs, RouterOutputs } from '../../lib/trpc';

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
);

export function initialMatchValues(match?: Match) {
  return {
    title: match?.title ?? '',
    description: match?.description ?? '',
    maxPlayers: String(match?.maxPlayers ?? 10),
    MatchDate: toLocalInput(match?.MatchDate),
    location: match?.location ?? '',
    teamNameA: match?.teamNameA ?? '',
    teamNameB: match?.teamNameB ?? '',
  };
}
type MatchValues = ReturnType<typeof initialMatchValues>;

const toNumber = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));

/** A new match's fields; empty team names take the API's defaults (TIME_A, TIME_B). */
export function toCreateFields(values: MatchValues): CreateFields {
  return {
    title: values.title,
    ...(values.description.trim() ? { description: values.description } : {}),
    maxPlayers: toNumber(values.maxPlayers),
    MatchDate: fromLocalInput(values.MatchDate) ?? '',
    location: values.location,
    ...(values.teamNameA.trim() ? { teamNameA: values.teamNameA } : {}),
    ...(values.teamNameB.trim() ? { teamNameB: values.teamNameB } : {}),
  };
}

/**
 * Only the fields that changed (the date may move only before the match starts, so an edit of
 * the title must not send it); an emptied description is removed (null).
 */
export function toUpdateFields(values: MatchValues, before: MatchValues): UpdateFields {
  const changed: UpdateFields = {};
  if (values.title !== before.title) changed.title = values.title;
  if (values.description !== before.description)
    changed.description = values.description.trim() ? values.description : null;
  if (values.maxPlayers !== before.maxPlayers) changed.maxPlayers = toNumber(values.maxPlayers);
  if (values.MatchDate !== before.MatchDate)
    changed.MatchDate = fromLocalInput(values.MatchDate) ?? '';
  if (values.location !== before.location) changed.location = values.location;
  if (values.teamNameA !== before.teamNameA) changed.teamNameA = values.teamNameA;
  if (values.teamNameB !== before.teamNameB) changed.teamNameB = values.teamNameB;
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
        hint="De 3 a 120 caracteres."
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
          hint="De 2 a 100, divididos entre os dois times."
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
        <Field label="Data e hora" name="MatchDate" error={errors.MatchDate} required>
          {(c) => <input {...c} {...form.bind('MatchDate')} type="datetime-local" required />}
        </Field>
      </div>
      <Field label="Local" name="location" error={errors.location} required>
        {(c) => <input {...c} {...form.bind('location')} maxLength={L.location.max} required />}
      </Field>
      <div className="row wrap">
        <Field
          label="Nome do time A"
          name="teamNameA"
          error={errors.teamNameA}
          hint={match ? undefined : 'Vazio: TIME_A.'}
        >
          {(c) => <input {...c} {...form.bind('teamNameA')} maxLength={L.teamName.max} />}
        </Field>
        <Field
          label="Nome do time B"
          name="teamNameB"
          error={errors.teamNameB}
          hint={match ? undefined : 'Vazio: TIME_B.'}
        >
          {(c) => <input {...c} {...form.bind('teamNameB')} maxLength={L.teamName.max} />}
        </Field>
      </div>
      <FormActions busy={busy} submitLabel={submitLabel} {...(onCancel ? { onCancel } : {})} />
    </form>
  );
}
