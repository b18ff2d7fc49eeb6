import { Field } from '../../components/Field';

/** One input of the account pages' forms (they are short and flat). */
export interface TextSpec<N extends string = string> {
  name: N;
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  maxLength?: number;
  hint?: string;
  required?: boolean;
}

/** A labelled input bound to a form value. */
export function TextInput(
  props: TextSpec & {
    value: string;
    onChange: (value: string) => void;
    error?: string | undefined;
  },
) {
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
  const required = props.required ?? true;
  return (
    <Field label={label} name={name} error={error} hint={hint} required={required}>
      {(control) => (
        <input
          {...control}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          type={type}
          autoComplete={autoComplete}
          maxLength={maxLength}
          required={required}
        />
      )}
    </Field>
  );
}

/** The inputs of `specs`, each bound to its value in `form` and showing its error. */
export function TextInputs<N extends string>(props: {
  specs: readonly TextSpec<N>[];
  form: { values: Record<N, string>; set: (name: N, value: string) => void };
  errors: Record<string, string>;
  /** For every input without its own `required` (default: required). */
  required?: boolean;
}) {
  const { specs, form, errors, required = true } = props;
  return specs.map((spec) => (
    <TextInput
      key={spec.name}
      {...spec}
      required={spec.required ?? required}
      value={form.values[spec.name]}
      onChange={(value) => form.set(spec.name, value)}
      error={errors[spec.name]}
    />
  ));
}

/** The current password, asked before a change that needs it. */
export const CURRENT_PASSWORD = {
  label: 'Senha atual',
  type: 'password',
  autoComplete: 'current-password',
} as const;

/** A new password, with its rule. */
export const NEW_PASSWORD = {
  label: 'Nova senha',
  type: 'password',
  autoComplete: 'new-password',
  hint: 'Pelo menos 8 caracteres.',
} as const;
