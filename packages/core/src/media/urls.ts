/**
 * Where the files are read (docs/contract/media.md, Serving): `/media/files/<name>` on this
 * service, or under MEDIA_PUBLIC_BASE_URL when set (a CDN in front of the bucket). Process-wide:
 * set once by `createServices`.
 */
export const MEDIA_FILES_PATH = '/media/files';

let publicBase = '';
export function setMediaBaseUrl(base: string | undefined): void {
  publicBase = (base ?? '').replace(/\/+$/, '');
}

/** The file names of one stored image: never anything a client sent. */
export const mainFile = (key: string) => `${key}.webp`;
export const thumbFile = (key: string) => `${key}-t.webp`;
export const filesOf = (key: string) => [mainFile(key), thumbFile(key)];

const fileUrl = (name: string) =>
  publicBase ? `${publicBase}/${name}` : `${MEDIA_FILES_PATH}/${name}`;
export const mainUrl = (key: string) => fileUrl(mainFile(key));
export const thumbUrl = (key: string) => fileUrl(thumbFile(key));
export const urlOrNull = (key: string | null | undefined) => (key ? mainUrl(key) : null);

/** A served name → its key and which rendition; undefined for any other name. */
export function parseFileName(name: string): { key: string; thumb: boolean } | undefined {
  const match = /^([A-Za-z0-9_-]{24})(-t)?\.webp$/.exec(name);
  return match ? { key: match[1]!, thumb: match[2] !== undefined } : undefined;
}

/** A photo's row as a post carries it. */
export const toMediaItem = (row: {
  id: string;
  key: string;
  width: number;
  height: number;
  thumbWidth: number;
  alt: string | null;
}) => ({
  id: row.id,
  url: mainUrl(row.key),
  thumbnailUrl: thumbUrl(row.key),
  width: row.width,
  height: row.height,
  thumbnailWidth: row.thumbWidth,
  alt: row.alt,
});
