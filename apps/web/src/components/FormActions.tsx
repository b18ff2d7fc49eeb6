/** A form's buttons: submit ("Salvando…" while busy) and, when the form can be left, Cancelar. */
export function FormActions(props: { busy: boolean; submitLabel: string; onCancel?: () => void }) {
  const { busy, submitLabel, onCancel } = props;
  return (
    <div className="row">
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Salvando…' : submitLabel}
      </button>
      {onCancel ? (
        <button type="button" onClick={onCancel}>
          Cancelar
        </button>
      ) : null}
    </div>
  );
}
