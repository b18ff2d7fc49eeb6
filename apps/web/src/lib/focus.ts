/** After a failed submit: the first invalid control of the form takes the focus. */
export function focusFirstInvalid(form: HTMLFormElement | null) {
  // After React has rendered the errors.
  requestAnimationFrame(() => {
    form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });
}
