import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formMessage } from '../../lib/errors';
import { MATCH_STATUS_LABELS } from '../../lib/format';
import { useTRPC, type RouterInputs, type RouterOutputs } from '../../lib/trpc';
import { MatchForm } from './MatchForm';

type Match = RouterOutputs['matches']['get'];
type MatchStatus = Match['MatchStatus'];
type UpdateFields = Omit<RouterInputs['matches']['update'], 'id'>;

/** The status changes the author may make from each status (docs/contract/matches.md, Status). */
const TRANSITIONS: Record<MatchStatus, { to: MatchStatus; label: string; confirm?: string }[]> = {
  EM_BREVE: [
    { to: 'EM_ANDAMENTO', label: 'Iniciar partida' },
    { to: 'CANCELADA', label: 'Cancelar partida', confirm: 'Cancelar esta partida?' },
  ],
  EM_ANDAMENTO: [{ to: 'FINALIZADA', label: 'Finalizar partida' }],
  FINALIZADA: [],
  CANCELADA: [],
};

interface MatchManagementProps {
  match: Match;
  busy: boolean;
  /** The page's `act` (useAnnouncements): runs an action and announces how it went. */
  act: <T>(action: () => Promise<T>, done: string | ((result: T) => string)) => Promise<void>;
  onError: (message: string) => void;
  onChangeStatus: (to: MatchStatus) => Promise<unknown>;
  onUpdate: (fields: UpdateFields) => Promise<unknown>;
  onDeleted: () => Promise<unknown>;
}

/**
 * What the author, an OWNER/ADMIN of the organising group or a site ADMIN may do to a match:
 * change its status, edit it (the score once it is finished), delete it.
 */
export function MatchManagement(props: MatchManagementProps) {
  const { match, busy, act, onError, onChangeStatus, onUpdate, onDeleted } = props;
  const trpc = useTRPC();
  const [editing, setEditing] = useState(false);
  const remove = useMutation(trpc.matches.delete.mutationOptions());
  const change = (to: MatchStatus) =>
    void act(
      () => onChangeStatus(to),
      () => `Situação: ${MATCH_STATUS_LABELS[to]}.`,
    );

  return (
    <section className="card" aria-labelledby="manage-title">
      <h2 id="manage-title">Organização</h2>
      <div className="row wrap">
        {TRANSITIONS[match.MatchStatus].map((t) =>
          t.confirm ? (
            <ConfirmButton
              key={t.to}
              label={t.label}
              question={t.confirm}
              confirmLabel={`Sim, ${t.label.toLowerCase()}`}
              disabled={busy}
              onConfirm={() => change(t.to)}
            />
          ) : (
            <button key={t.to} type="button" disabled={busy} onClick={() => change(t.to)}>
              {t.label}
            </button>
          ),
        )}
        {!editing ? (
          <button type="button" onClick={() => setEditing(true)}>
            {match.MatchStatus === 'FINALIZADA' ? 'Editar partida e placar' : 'Editar partida'}
          </button>
        ) : null}
        <ConfirmButton
          label="Excluir partida"
          question="Excluir esta partida e todas as inscrições?"
          confirmLabel="Sim, excluir"
          className="danger"
          onConfirm={() =>
            void remove
              .mutateAsync({ id: match.id })
              .then(onDeleted, (failure: unknown) => onError(formMessage(failure)))
          }
        />
      </div>
      {editing ? (
        <MatchForm
          match={match}
          submitLabel="Salvar alterações"
          onCancel={() => setEditing(false)}
          onUpdate={async (fields) => {
            await onUpdate(fields);
            setEditing(false);
          }}
        />
      ) : null}
    </section>
  );
}
