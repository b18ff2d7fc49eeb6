import { useId, type FormEvent, type ReactNode, type RefObject } from 'react';
import { ErrorMessage, StatusMessage } from './Alert';

interface FormCardProps {
  /** A section of its own, headed by this (h2), when given. */
  title?: string;
  /** From `useSubmit`: the form's ref, its message above the form, and whether it is sending. */
  state: { formRef: RefObject<HTMLFormElement | null>; message: string | null; busy: boolean };
  onSubmit: (event: FormEvent) => void;
  /** Shown instead of the form's message, when there is one. */
  error?: string | null | undefined;
  /** The note after it worked ("Perfil atualizado."); the region stays mounted when given. */
  done?: string | null;
  submitLabel: string;
  /** The button's words while sending ("Salvando…"). */
  busyLabel: string;
  danger?: boolean;
  disabled?: boolean;
  children: ReactNode;
}

/**
 * A short form as the account pages have them: the outcome announced above it, the fields in a
 * card, one submit button that says it is sending.
 */
export function FormCard(props: FormCardProps) {
  const { title, state, onSubmit, error, done, submitLabel, busyLabel, danger, disabled } = props;
  const headingId = useId();
  const form = (
    <>
      {done === undefined ? null : <StatusMessage>{done}</StatusMessage>}
      <ErrorMessage>{error ?? state.message}</ErrorMessage>
      <form ref={state.formRef} onSubmit={onSubmit} noValidate className="card stack">
        {props.children}
        <button
          type="submit"
          className={danger ? 'danger' : 'primary'}
          disabled={state.busy || disabled}
        >
          {state.busy ? busyLabel : submitLabel}
        </button>
      </form>
    </>
  );
  if (title === undefined) return form;
  return (
    <section aria-labelledby={headingId} className="stack">
      <h2 id={headingId}>{title}</h2>
      {form}
    </section>
  );
}
