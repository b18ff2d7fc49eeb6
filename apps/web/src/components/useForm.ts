import { useState, type ChangeEvent } from 'react';

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
