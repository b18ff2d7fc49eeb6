import type { RouterOutputs } from '../../session/store';

/** A post's photo as the API gives it (docs/contract/media.md). */
type Photo = RouterOutputs['feed']['get']['media'][number];

/**
 * A post's photos: `srcset` between the thumbnail (800 px; 400 for photos sent before
 * 2026-12-02) and the main image, loaded lazily, with their width and height so that nothing
 * moves while they load.
 */
export function PostPhotos({
  media,
  sizes = '(max-width: 40rem) 100vw, 36rem',
}: {
  media: Photo[];
  sizes?: string;
}) {
  if (media.length === 0) return null;
  return (
    <ul className={`post-photos post-photos--${Math.min(media.length, 4)}`}>
      {media.map((photo) => (
        <li key={photo.id}>
          <img
            src={photo.url}
            srcSet={`${photo.thumbnailUrl} ${photo.thumbnailWidth}w, ${photo.url} ${photo.width}w`}
            sizes={sizes}
            width={photo.width}
            height={photo.height}
            loading="lazy"
            decoding="async"
            alt={photo.alt ?? ''}
          />
        </li>
      ))}
    </ul>
  );
}
