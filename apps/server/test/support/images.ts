import sharp from 'sharp';
import { deflateSync } from 'node:zlib';

/* Real images for the photo tests, made by sharp (libvips) or byte by byte. */

/** A photo-like JPEG (a gradient) of the given size. */
export const jpeg = (width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .composite([{ input: Buffer.from(gradientSvg(width, height)), top: 0, left: 0 }])
    .jpeg({ quality: 85 })
    .toBuffer();

const gradientSvg = (w: number, h: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g"><stop offset="0" stop-color="#f80"/><stop offset="1" stop-color="#08f"/></linearGradient></defs><rect width="${w}" height="${h / 2}" fill="url(#g)"/></svg>`;

/** A camera JPEG with GPS position, camera serial, XMP and a comment in its metadata. */
export const SECRETS = ['CAM-SERIAL-4242', 'Rua Secreta 10', 'xmp-private-note'];
export const jpegWithGps = async () =>
  sharp(await jpeg(800, 600))
    .withExif({
      IFD0: { Make: 'Campus', Model: 'Cam 1', Copyright: SECRETS[1]! },
      IFD2: { BodySerialNumber: SECRETS[0]!, UserComment: 'private comment' },
      IFD3: {
        GPSLatitudeRef: 'S',
        GPSLatitude: '23/1 33/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '46/1 38/1 0/1',
      },
    })
    .withXmp(
      `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description>${SECRETS[2]}</dc:description></rdf:Description></rdf:RDF></x:xmpmeta>`,
    )
    .jpeg()
    .toBuffer();

/** A 400×200 JPEG stored as is with EXIF orientation 6: shown upright, it is 200×400. */
export const orientedJpeg = async () =>
  sharp(await jpeg(400, 200))
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();

export const png = (width = 8, height = 8) =>
  sharp({ create: { width, height, channels: 4, background: '#3366ff' } })
    .png()
    .toBuffer();
export const webp = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#0a0' } })
    .webp()
    .toBuffer();
export const gif = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
    .gif()
    .toBuffer();
export const tiff = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
    .tiff()
    .toBuffer();
export const svg = () => Buffer.from(gradientSvg(100, 100));
export const pdf = () =>
  Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
export const text = () => Buffer.from('just some text, not an image\n');

/** A JPEG with an HTML document after its end: a polyglot a browser might sniff as HTML. */
export const POLYGLOT_MARK = '<script>alert(document.cookie)</script>';
export const polyglot = async () =>
  Buffer.concat([await jpeg(64, 64), Buffer.from(`<html><body>${POLYGLOT_MARK}</body></html>`)]);

/** JPEG's first bytes, then noise: the type is right, the image does not decode. */
export const brokenJpeg = () =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 0x5a)]);

/**
 * A decompression bomb: a PNG of 8000×8000 one-bit pixels (64 megapixels) whose rows are all
 * zeros, a few kB on the wire.
 */
export function pngBomb(side = 8000): Buffer {
  const row = Buffer.alloc(1 + side / 8); // filter byte + 1-bit pixels
  const raw = Buffer.alloc(row.length * side);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // grayscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
