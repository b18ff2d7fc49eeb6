import type { ChangeEvent, ReactNode } from 'react';
import { Field } from './Field';
import { Options } from './Options';

/** What one text-like field of a form is: its label, its control's attributes and its hint. */
export interface InputSpec {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password' | 'date';
  autoComplete?: string;
  /** From core's LIMITS, never a literal: the API refuses one character more. */
  maxLength?: number;
  min?: string;
  max?: string;
  hint?: string;
  /** The id of a datalist offering values (`suggestions`); the field still takes any text. */
  list?: string;
}

interface InputFieldProps {
  spec: InputSpec;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  error?: string | undefined;
  status?: ReactNode;
  suggestions?: readonly string[];
}

/** A labelled, required input with its hint, live status, error and suggestion list. */
export function InputField({ spec, value, onChange, error, status, suggestions }: InputFieldProps) {
  const listId = spec.list;
  return (
    <>
      <Field
        label={spec.label}
        name={spec.name}
        error={error}
        hint={spec.hint}
        status={status}
        required
      >
        {(control) => (
          <input
            {...control}
            value={value}
            onChange={onChange}
            type={spec.type}
            autoComplete={spec.autoComplete}
            maxLength={spec.maxLength}
            min={spec.min}
            max={spec.max}
            list={listId}
            required
          />
        )}
      </Field>
      {listId ? (
        <datalist id={listId}>
          {suggestions?.map((option) => (
            <option key={option} value={option} />
          ))}
        </datalist>
      ) : null}
    </>
  );
}

interface SelectFieldProps {
  name: string;
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
  /** The empty first option ("Selecione…"). */
  placeholder: string;
  options: readonly { value: string; label: string }[];
  error?: string | undefined;
  hint?: string | undefined;
  disabled?: boolean;
}

/** A labelled, required select with an empty first option. */
export function SelectField(props: SelectFieldProps) {
  const { name, label, value, onChange, placeholder, options, error, hint, disabled } = props;
  return (
    <Field label={label} name={name} error={error} hint={hint} required>
      {(control) => (
        <select {...control} value={value} onChange={onChange} disabled={disabled} required>
          <Options empty={placeholder} choices={options} />
        </select>
      )}
    </Field>
  );
}
