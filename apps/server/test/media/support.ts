import { media as mediaTable, type MediaOptions } from '@campus/core';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { TestApp, TestUser } from '../support/app';

/** POST /media with `bytes` as the `file` part (named and typed as a client might lie). */
export const upload = (
  t: TestApp,
  user: TestUser | undefined,
  bytes: Buffer,
  options: { alt?: string; filename?: string; contentType?: string } = {},
) => {
  let req = t.request.post('/media');
  if (user) req = req.set(user.auth);
  if (options.alt !== undefined) req = req.field('alt', options.alt);
  return req.attach('file', bytes, {
    filename: options.filename ?? 'photo.jpg',
    contentType: options.contentType ?? 'image/jpeg',
  });
};

/** A served file read without any token: status, headers and bytes. */
export async function fetchFile(t: TestApp, url: string) {
  const res = await fetch(new URL(url, t.baseUrl));
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

export const imageSize = async (bytes: Buffer) => {
  const { width, height, format, exif, xmp, comments } = await sharp(bytes).metadata();
  return { width, height, format, exif, xmp, comments };
};

export const mediaRow = async (t: TestApp, id: string) =>
  (await t.db.select().from(mediaTable).where(eq(mediaTable.id, id)))[0];

/** A storage to run the photo tests on, with what it needs started and stopped. */
export interface StorageUnderTest {
  options: MediaOptions;
  stop(): Promise<void>;
}
