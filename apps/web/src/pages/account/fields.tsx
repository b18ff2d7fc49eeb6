import { Field } from '../../components/Field';

/** A labelled input bound to a form value (the account pages' forms are short and flat). */
export function TextInput(props: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  maxLength?: number;
  hint?: string;
  required?: boolean;
}) {
  const {
    label,
    name,
    value,
    onChange,
    error,
    type = 'text',
    autoComplete,
    maxLength,
    hint,
  } = props;
  return (
    <Field label={label} name={name} error={error} hint={hint} required={props.required ?? true}>
      {(control) => (
        <input
          {...control}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          type={type}
          autoComplete={autoComplete}
          maxLength={maxLength}
          required={props.required ?? true}
        />
      )}
    </Field>
  );
}
