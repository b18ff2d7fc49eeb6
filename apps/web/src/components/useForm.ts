import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { fieldErrors, formMessage } from '../lib/errors';
import { focusFirstInvalid } from '../lib/focus';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** Form values as strings by field name, with `bind(name)` for a control's value and onChange. */
export function useFormValues<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState<T>(initial);
  const set = (name: keyof T, value: string) =>
    setValues((current) => ({ ...current, [name]: value }));
  const bind = (name: keyof T & string) => ({
    value: values[name],
    onChange: (event: ChangeEvent<Control>) => set(name, event.target.value),
  });
  return { values, set, setValues, bind, reset: () => setValues(initial) };
}

/**
 * A form's submit. `handle(action)` is the form's onSubmit: busy while the action runs; when it
 * fails (the API's answer or the check before sending), each field's error goes beside it, one
 * message above the form, and the focus to the first invalid field. `fields` maps API paths to
 * the form's field names (see `fieldErrors`).
 */
export function useSubmit(fields: Record<string, string>) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  // A message about the fields ("Corrija os campos indicados.") goes once they are all mended.
  const [failure, setFailure] = useState<{ text: string; aboutFields: boolean } | null>(null);
  const message =
    failure && !(failure.aboutFields && Object.keys(errors).length === 0) ? failure.text : null;
  const setMessage = (text: string | null) =>
    setFailure(text === null ? null : { text, aboutFields: false });
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const handle = (action: () => Promise<unknown>) => async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      await action();
      setErrors({});
    } catch (error) {
      const byField = fieldErrors(error, fields);
      setErrors(byField);
      setFailure({
        text: formMessage(error, fields),
        aboutFields: Object.keys(byField).length > 0,
      });
      focusFirstInvalid(formRef.current);
    } finally {
      setBusy(false);
    }
  };
  return { errors, setErrors, message, setMessage, busy, formRef, handle };
}
