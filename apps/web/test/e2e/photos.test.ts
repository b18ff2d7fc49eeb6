import { expect, it } from 'vitest';
import { deflateSync } from 'node:zlib';
import { visible } from './support/browser';
import { describeE2e } from './support/suite';

/** A real PNG of `side`² pixels of one colour, made here byte by byte (no image library). */
function png(side: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(side * 3).map((_, i) => rgb[i % 3]!)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: side }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describeE2e('fotos', ({ register, signIn }) => {
  it('publishes a post with two photos from the composer and sees them in the feed', async () => {
    const author = await register('fotos');
    const { page } = await signIn(author);
    const title = `Fotos do campus ${author.nickname}`;
    const composer = page.locator('details.composer');
    await composer.locator('summary').click();
    await composer.getByLabel('Título').fill(title);
    await composer.getByLabel('Adicionar fotos').setInputFiles([
      { name: 'patio.png', mimeType: 'image/png', buffer: png(120, [200, 80, 40]) },
      { name: 'lago.png', mimeType: 'image/png', buffer: png(90, [40, 120, 200]) },
    ]);
    await composer.getByLabel('Descrição da foto 1').fill('O pátio ao meio-dia');
    await composer.getByLabel('Descrição da foto 2').fill('O lago');
    await composer.getByRole('button', { name: 'Publicar' }).click();
    await visible(page.getByRole('status').filter({ hasText: `Publicado: “${title}”.` }));

    const card = page.locator('article.post-item', {
      has: page.getByRole('link', { name: title }),
    });
    const photos = card.locator('.post-photos img');
    await visible(photos.first());
    expect(await photos.count()).toBe(2);
    expect(await photos.nth(0).getAttribute('alt')).toBe('O pátio ao meio-dia');
    expect(await photos.nth(1).getAttribute('alt')).toBe('O lago');
    expect(await photos.nth(0).getAttribute('width')).toBe('120');
    expect(await photos.nth(0).getAttribute('srcset')).toMatch(/-t\.webp 120w, .*\.webp 120w$/);
    // The image really loads from the service (no token: an <img> sends none).
    await expect
      .poll(() =>
        photos.nth(1).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
  });
});
