import { LIMITS } from '@campus/core/schemas';
import { useId } from 'react';

/** A photo chosen in the composer, not sent yet: the file, its preview and its description. */
export interface ChosenPhoto {
  key: string;
  file: File;
  preview: string;
  alt: string;
}

/**
 * Up to 4 photos for a post (docs/contract/media.md): a file input that opens the camera or the
 * gallery on a phone, a preview of each, its description for screen readers, and removal. The
 * photos are sent when the post is published.
 */
export function PhotoPicker({
  photos,
  onChange,
}: {
  photos: ChosenPhoto[];
  onChange: (photos: ChosenPhoto[]) => void;
}) {
  const id = useId();
  const room = LIMITS.media.perPost.max - photos.length;
  const add = (files: FileList | null) => {
    const chosen = [...(files ?? [])].slice(0, room).map((file) => ({
      key: `${file.name}-${file.size}-${Math.random()}`,
      file,
      preview: URL.createObjectURL(file),
      alt: '',
    }));
    onChange([...photos, ...chosen]);
  };
  return (
    <fieldset className="photo-picker">
      <legend>Fotos (até {LIMITS.media.perPost.max})</legend>
      {room > 0 ? (
        <>
          <label htmlFor={id}>Adicionar fotos</label>
          <input
            id={id}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/heic,image/avif"
            multiple
            onChange={(event) => {
              add(event.currentTarget.files);
              event.currentTarget.value = '';
            }}
          />
        </>
      ) : null}
      <ul className="photo-picker__list">
        {photos.map((photo, i) => (
          <li key={photo.key}>
            <img src={photo.preview} alt="" width={96} height={96} />
            <label>
              Descrição da foto {i + 1}
              <input
                value={photo.alt}
                maxLength={LIMITS.media.alt.max}
                onChange={(event) =>
                  onChange(
                    photos.map((p) =>
                      p.key === photo.key ? { ...p, alt: event.currentTarget.value } : p,
                    ),
                  )
                }
              />
            </label>
            <button
              type="button"
              onClick={() => {
                URL.revokeObjectURL(photo.preview);
                onChange(photos.filter((p) => p.key !== photo.key));
              }}
            >
              Remover foto {i + 1}
            </button>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
