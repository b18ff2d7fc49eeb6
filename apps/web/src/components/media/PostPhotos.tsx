/** A post's photo as the API gives it (docs/contract/media.md). */
export interface Photo {
  id: string;
  url: string;
  thumbnailUrl: string;
  width: number;
  height: number;
  alt: string | null;
}

/** The width of the thumbnail rendition, for `srcset`. */
const THUMB_SIDE = 400;

/**
 * A post's photos: `srcset` between the 400 px thumbnail and the main image, loaded lazily, with
 * their width and height so that nothing moves while they load.
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
      {media.map((photo) => {
        const thumbWidth = Math.min(THUMB_SIDE, photo.width);
        return (
          <li key={photo.id}>
            <img
              src={photo.url}
              srcSet={`${photo.thumbnailUrl} ${thumbWidth}w, ${photo.url} ${photo.width}w`}
              sizes={sizes}
              width={photo.width}
              height={photo.height}
              loading="lazy"
              decoding="async"
              alt={photo.alt ?? ''}
            />
          </li>
        );
      })}
    </ul>
  );
}
