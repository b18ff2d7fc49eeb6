import { open } from 'node:fs/promises';
import type { default as SharpFunction, Metadata } from 'sharp';
import { LIMITS } from '../common/limits';
import { AppError } from '../errors';

/*
 * Image work (docs/contract/media.md): the type is read from the first bytes, the header is read
 * before any pixel (over 40 megapixels → 422 without decoding), then libvips decodes with the same
 * pixel ceiling, applies the orientation, resizes and re-encodes to WebP. Nothing of the original
 * survives: sharp writes no metadata unless asked (no EXIF, GPS, XMP, ICC comments).
 */

let loaded: Promise<typeof SharpFunction> | undefined;

/** sharp, loaded with the first image: libvips holds about 30 MB that an idle server does without. */
const loadSharp = () =>
  (loaded ??= import('sharp').then(({ default: sharp }) => {
    // One libvips thread per image: the work queue runs as many images as there are cores.
    sharp.concurrency(1);
    // No operation cache: every upload is different, and the cache holds memory between bursts.
    sharp.cache(false);
    return sharp;
  }));

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'heif';

const HEIF_BRANDS = new Set([
  'heic',
  'heix',
  'hevc',
  'hevx',
  'heim',
  'heis',
  'mif1',
  'msf1',
  'avif',
  'avis',
]);

/** The image type from the file's first bytes (never the declared type or the name). */
export function sniffImage(head: Buffer): ImageFormat | undefined {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  if (head.toString('latin1', 4, 8) === 'ftyp' && HEIF_BRANDS.has(head.toString('latin1', 8, 12)))
    return 'heif';
  return undefined;
}

export const unsupportedType = () =>
  new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    'Tipo de imagem não aceito: envie JPEG, PNG ou WebP (HEIC/AVIF quando decodificáveis)',
  );
export const invalidImage = (message: string) =>
  new AppError('UNPROCESSABLE_CONTENT', message, { reason: 'INVALID_IMAGE' });

async function headOf(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(16), 0, 16, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** What an image becomes: a WebP of the main size and one of the thumbnail's. */
export interface Rendition {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * The sizes per use: a post photo fits 1600 px, its thumbnail 800 (a card on a phone is about
 * 330 CSS px wide, 660-1000 device px: a 400-px thumbnail sent it to the 1600-px image, about 4×
 * the bytes); avatars and logos are squares.
 */
export const SHAPES = {
  post: { main: { side: 1600, square: false }, thumb: { side: 800, square: false } },
  avatar: { main: { side: 256, square: true }, thumb: { side: 96, square: true } },
  logo: { main: { side: 256, square: true }, thumb: { side: 96, square: true } },
} as const;
export type MediaKind = keyof typeof SHAPES;

const decodeOptions = {
  limitInputPixels: LIMITS.media.pixels.max,
  failOn: 'error',
  sequentialRead: true,
} as const;

/** Checks the file at `path` (type, header, pixel count) and renders its two WebPs. */
export async function renderImage(
  path: string,
  kind: MediaKind,
): Promise<{ main: Rendition; thumb: Rendition }> {
  const format = sniffImage(await headOf(path));
  if (!format) throw unsupportedType();
  const sharp = await loadSharp();
  let header: Metadata;
  try {
    header = await sharp(path, decodeOptions).metadata();
  } catch (error) {
    // A HEIF libvips cannot decode (HEVC): a type this server does not take.
    if (format === 'heif') throw unsupportedType();
    throw invalidImage(`A imagem não pôde ser lida (${(error as Error).message})`);
  }
  const pixels = (header.width ?? 0) * (header.height ?? 0);
  if (!pixels) throw invalidImage('A imagem não tem dimensões legíveis');
  if (pixels > LIMITS.media.pixels.max) throw invalidImage('A imagem tem mais de 40 megapixels');
  const shape = SHAPES[kind];
  try {
    // The original is decoded, oriented and resized once, to raw pixels; both WebPs are encoded
    // from those, side by side (before, the thumbnail decoded the main WebP again: 8 simultaneous
    // 12 MP uploads' p99 went from 4.5 to 3.3-3.5 s in one bench session).
    const { data: decoded, info } = await sharp(path, decodeOptions)
      .rotate()
      .resize(fitTo(shape.main))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    const [main, thumb] = await Promise.all([
      encode(sharp(decoded, raw)),
      encode(sharp(decoded, raw).resize(fitTo(shape.thumb))),
    ]);
    return { main, thumb };
  } catch (error) {
    throw invalidImage(`A imagem não pôde ser decodificada (${(error as Error).message})`);
  }
}

const fitTo = (size: { side: number; square: boolean }) => ({
  width: size.side,
  height: size.side,
  fit: size.square ? ('cover' as const) : ('inside' as const),
  withoutEnlargement: !size.square,
});

async function encode(image: ReturnType<typeof SharpFunction>): Promise<Rendition> {
  const { data, info } = await image
    .webp({ quality: 80, effort: 2 })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
