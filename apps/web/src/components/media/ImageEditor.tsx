import { useEffect, useId, useState } from 'react';
import { ErrorMessage } from '../Alert';
import { Avatar } from './Avatar';

/**
 * An avatar's or a group logo's editor (docs/contract/media.md): choose an image (the camera or
 * the gallery on a phone), see it as it will show (a square), save it, or remove the current one.
 */
export function ImageEditor({
  label,
  name,
  current,
  onSave,
  onRemove,
}: {
  /** What the image is, e.g. "Foto do perfil". */
  label: string;
  /** Whose it is: the initials shown when there is none. */
  name: string;
  current: string | null | undefined;
  onSave: (file: File) => Promise<void>;
  onRemove: () => Promise<void>;
}) {
  const id = useId();
  const [chosen, setChosen] = useState<{ file: File; preview: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => () => void (chosen && URL.revokeObjectURL(chosen.preview)), [chosen]);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      setChosen(null);
    } catch (failure) {
      setError((failure as Error).message || 'Não foi possível salvar a imagem.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset className="image-editor">
      <legend>{label}</legend>
      <div className="row wrap">
        <Avatar url={chosen?.preview ?? current} name={name} size={72} />
        <label htmlFor={id} className="button-link">
          Escolher imagem
        </label>
        <input
          id={id}
          className="visually-hidden"
          type="file"
          accept="image/jpeg,image/png,image/webp,image/heic,image/avif"
          aria-label={`Escolher ${label.toLowerCase()}`}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file) setChosen({ file, preview: URL.createObjectURL(file) });
            event.currentTarget.value = '';
          }}
        />
        {chosen ? (
          <>
            <button
              type="button"
              disabled={busy}
              onClick={() => void run(() => onSave(chosen.file))}
            >
              Salvar
            </button>
            <button type="button" disabled={busy} onClick={() => setChosen(null)}>
              Cancelar
            </button>
          </>
        ) : current ? (
          <button type="button" disabled={busy} onClick={() => void run(onRemove)}>
            Remover
          </button>
        ) : null}
      </div>
      {error ? <ErrorMessage>{error}</ErrorMessage> : null}
    </fieldset>
  );
}
