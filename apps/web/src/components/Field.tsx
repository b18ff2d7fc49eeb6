import { useId, type ReactNode } from 'react';

/** What a control needs to be tied to its label, hint and error. */
export interface ControlProps {
  id: string;
  name: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  label: string;
  name: string;
  error?: string | undefined;
  hint?: ReactNode;
  /** A live note beside the field (e.g. "nickname disponível"), announced politely. */
  status?: ReactNode;
  required?: boolean;
  children: (control: ControlProps) => ReactNode;
}

/**
 * A labelled form field. The control (input, select, textarea) gets `aria-invalid` and
 * `aria-describedby` pointing at its hint and error. Forms announce a failed submit once (an
 * alert above the fields) and move the focus to the first invalid field, which reads its error.
 */
export function Field({ label, name, error, hint, status, required, children }: FieldProps) {
  const id = `${name}-${useId().replace(/:/g, '')}`;
  const hintId = hint ? `${id}-hint` : undefined;
  const statusId = status !== undefined ? `${id}-status` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, statusId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <div className="field__label">
        <label htmlFor={id}>{label}</label>
        {/* The control says it is required (`required`); the star is for the eye only. */}
        {required ? <span aria-hidden="true"> *</span> : null}
      </div>
      {children({ id, name, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy })}
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {status !== undefined ? (
        <p className="field__status" id={statusId} aria-live="polite">
          {status}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
