import { media as mediaTable } from '@campus/core';
import { eq, sql } from 'drizzle-orm';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp, type TestUser } from '../support/app';
import { generalBody } from '../support/feed';
import * as images from '../support/images';
import { fetchFile, imageSize, mediaRow, upload, type StorageUnderTest } from './support';

/** §G over HTTP on one storage (disk or S3): uploads, refusals, serving, posts, clean-up. */
export function photoBehaviours(storage: () => Promise<StorageUnderTest>) {
  let t: TestApp;
  let user: TestUser;
  let other: TestUser;
  let stored: StorageUnderTest;
  beforeAll(async () => {
    stored = await storage();
    t = await startTestApp({ media: stored.options });
    [user, other] = await Promise.all([t.createUser(), t.createUser()]);
  });
  afterAll(async () => {
    await t?.close();
    await stored?.stop();
  });

  describe('POST /media', () => {
    it('201: re-encoded, no metadata (GPS, serial, XMP), served without a token, immutable', async () => {
      const res = await upload(t, user, await images.jpegWithGps(), { alt: 'A campus view' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        url: expect.stringMatching(/^\/media\/files\/[A-Za-z0-9_-]{24}\.webp$/),
        thumbnailUrl: expect.stringMatching(/^\/media\/files\/[A-Za-z0-9_-]{24}-t\.webp$/),
        width: 800,
        height: 600,
        thumbnailWidth: 800,
        contentType: 'image/webp',
        alt: 'A campus view',
        createdAt: expect.any(String),
      });
      const file = await fetchFile(t, res.body.url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/webp');
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(file.headers.get('etag')).toBeTruthy();
      const served = await imageSize(file.bytes);
      expect(served).toMatchObject({ width: 800, height: 600, format: 'webp' });
      expect(served.exif).toBeUndefined();
      expect(served.xmp).toBeUndefined();
      for (const secret of images.SECRETS) expect(file.bytes.includes(secret)).toBe(false);
      const thumb = await fetchFile(t, res.body.thumbnailUrl);
      expect(await imageSize(thumb.bytes)).toMatchObject({ width: 800, height: 600 });
      const again = await fetch(new URL(res.body.url, t.baseUrl), {
        headers: { 'If-None-Match': file.headers.get('etag')! },
      });
      expect(again.status).toBe(304);
    });

    it('applies the orientation: a 400×200 JPEG with orientation 6 is served 200×400', async () => {
      const res = await upload(t, user, await images.orientedJpeg());
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ width: 200, height: 400 });
      const file = await fetchFile(t, res.body.url);
      expect(await imageSize(file.bytes)).toMatchObject({ width: 200, height: 400 });
    });

    it('takes PNG and WebP; a big photo is served at 1600 px, its thumbnail at 800', async () => {
      expect((await upload(t, user, await images.png(), { filename: 'a.gif' })).status).toBe(201);
      expect((await upload(t, user, await images.webp())).status).toBe(201);
      const big = await upload(t, user, await images.jpeg(3200, 2400));
      expect(big.body).toMatchObject({ width: 1600, height: 1200, thumbnailWidth: 800 });
      const thumb = await fetchFile(t, big.body.thumbnailUrl);
      expect(await imageSize(thumb.bytes)).toMatchObject({ width: 800, height: 600 });
    });

    it('a JPEG with HTML after it (polyglot) is re-encoded: nothing of the HTML is served', async () => {
      const res = await upload(t, user, await images.polyglot(), { contentType: 'text/html' });
      expect(res.status).toBe(201);
      const file = await fetchFile(t, res.body.url);
      expect(file.headers.get('content-type')).toBe('image/webp');
      expect(file.bytes.includes(images.POLYGLOT_MARK)).toBe(false);
    });

    it.each([
      ['GIF', images.gif],
      ['SVG', images.svg],
      ['PDF', images.pdf],
      ['TIFF', images.tiff],
      ['text', images.text],
    ])('415 for %s, whatever the declared type; nothing stored', async (_name, make) => {
      const before = await uploadsOf(user);
      const res = await upload(t, user, await make(), { contentType: 'image/jpeg' });
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(await uploadsOf(user)).toBe(before);
    });

    it('422 INVALID_IMAGE for an undecodable JPEG and for a decompression bomb', async () => {
      const bomb = images.pngBomb();
      expect(bomb.length).toBeLessThan(20_000);
      for (const bytes of [images.brokenJpeg(), bomb]) {
        const res = await upload(t, user, bytes);
        expectError(res, 422, 'UNPROCESSABLE_CONTENT');
        expect(res.body.reason).toBe('INVALID_IMAGE');
      }
    });

    it('400 without a file part; 401 without a token; 400 for an alt over 300 characters', async () => {
      const none = await t.request.post('/media').set(user.auth).field('alt', 'x');
      expectError(none, 400, 'BAD_REQUEST');
      expectError(await upload(t, undefined, await images.png()), 401, 'UNAUTHORIZED');
      expectError(
        await upload(t, user, await images.png(), { alt: 'a'.repeat(301) }),
        400,
        'BAD_REQUEST',
      );
    });

    it('413 for a body over 10 MB, answered before the rest is sent', async () => {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(new URL('/media', t.baseUrl), {
          method: 'POST',
          headers: {
            ...user.auth,
            'Content-Type': 'multipart/form-data; boundary=xyz',
            'Content-Length': String(11 * 1024 * 1024),
          },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        // Only the first part's head is sent: the answer comes without the other 11 MB.
        req.write('--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n');
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    });

    it('413 when the file part passes 10 MB while streaming (no Content-Length)', async () => {
      const res = await upload(
        t,
        user,
        Buffer.concat([await images.jpeg(64, 64), Buffer.alloc(10 * 1024 * 1024 + 10)]),
      );
      expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('429 RATE_LIMITED at the 101st upload of the day (counted in the database)', async () => {
      const busy = await t.createUser();
      const tiny = await images.png(4, 4);
      for (let i = 0; i < 100; i += 10)
        await Promise.all(
          Array.from({ length: 10 }, async () =>
            expect((await upload(t, busy, tiny)).status).toBe(201),
          ),
        );
      const refused = await upload(t, busy, tiny);
      expectError(refused, 429, 'TOO_MANY_REQUESTS');
      expect(refused.body.reason).toBe('RATE_LIMITED');
      expect(await uploadsOf(busy)).toBe(100);
    });

    it('/trpc takes FormData: the same upload, the same answer', async () => {
      const form = new FormData();
      form.append('file', new Blob([await images.jpeg(300, 200)]), 'x.jpg');
      form.append('alt', 'via tRPC');
      const res = await fetch(`${t.baseUrl}/trpc/media.upload`, {
        method: 'POST',
        headers: user.auth,
        body: form,
      });
      expect(res.status).toBe(200);
      const { result } = (await res.json()) as { result: { data: Record<string, unknown> } };
      expect(result.data).toMatchObject({ width: 300, height: 200, alt: 'via tRPC' });
      expect((await fetchFile(t, result.data.url as string)).status).toBe(200);
    });
  });

  describe('photos on posts', () => {
    it('mediaIds: in order on the created post, in the list and the read; PATCH replaces; delete → 404', async () => {
      const [a, b, c] = await Promise.all(
        [1, 2, 3].map(
          async (n) =>
            (await upload(t, user, await images.jpeg(100 * n, 100), { alt: `photo ${n}` })).body,
        ),
      );
      const created = await t.request
        .post('/post')
        .set(user.auth)
        .send(generalBody(user, { mediaIds: [b.id, a.id] }));
      expect(created.status).toBe(201);
      const item = (m: typeof a) => ({
        id: m.id,
        url: m.url,
        thumbnailUrl: m.thumbnailUrl,
        width: m.width,
        height: m.height,
        thumbnailWidth: m.thumbnailWidth,
        alt: m.alt,
      });
      expect(created.body.media).toEqual([item(b), item(a)]);
      const read = await t.request.get(`/post/${created.body.id}`).set(user.auth);
      expect(read.body.media).toEqual([item(b), item(a)]);
      const list = await t.request.get(`/post?authorId=${user.id}`).set(user.auth);
      expect(list.body.data[0].media).toEqual([item(b), item(a)]);

      // Taken already, or someone else's: refused, nothing changed.
      const taken = await t.request
        .post('/post')
        .set(user.auth)
        .send(generalBody(user, { mediaIds: [a.id] }));
      expectError(taken, 400, 'BAD_REQUEST');
      expect(taken.body.reason).toBe('MEDIA_NOT_AVAILABLE');
      const theirs = await t.request
        .post('/post')
        .set(other.auth)
        .send(generalBody(other, { mediaIds: [c.id] }));
      expect(theirs.body.reason).toBe('MEDIA_NOT_AVAILABLE');

      const patched = await t.request
        .patch(`/post/${created.body.id}`)
        .set(user.auth)
        .send({ mediaIds: [c.id, a.id] });
      expect(patched.status).toBe(200);
      expect(patched.body.media).toEqual([item(c), item(a)]);
      expect((await fetchFile(t, b.url)).status).toBe(404);
      expect((await mediaRow(t, b.id))?.discardedAt).toBeInstanceOf(Date);

      expect((await t.request.delete(`/post/${created.body.id}`).set(user.auth)).status).toBe(204);
      expect((await fetchFile(t, c.url)).status).toBe(404);
      expect((await fetchFile(t, a.thumbnailUrl)).status).toBe(404);
      // The clean-up job deletes their files and rows.
      await t.services.media.cleanUp();
      expect(await mediaRow(t, a.id)).toBeUndefined();
      expect(await stored.options.storage.open(a.url.split('/').pop()!)).toBeUndefined();
    });

    it('DELETE /media/{id}: the owner removes an unused upload (404 after); others and used ones 404', async () => {
      const [mine, used] = await Promise.all(
        [1, 2].map(async () => (await upload(t, user, await images.png())).body),
      );
      await t.request
        .post('/post')
        .set(user.auth)
        .send(generalBody(user, { mediaIds: [used.id] }));
      expectError(await t.request.delete(`/media/${mine.id}`).set(other.auth), 404, 'NOT_FOUND');
      expectError(await t.request.delete(`/media/${used.id}`).set(user.auth), 404, 'NOT_FOUND');
      expect((await t.request.delete(`/media/${mine.id}`).set(user.auth)).status).toBe(204);
      expect((await fetchFile(t, mine.url)).status).toBe(404);
      expect((await fetchFile(t, used.url)).status).toBe(200);
    });

    it('more than 4 mediaIds, or one twice → 400', async () => {
      const ids = Array.from({ length: 5 }, () => crypto.randomUUID());
      expectError(
        await t.request
          .post('/post')
          .set(user.auth)
          .send(generalBody(user, { mediaIds: ids })),
        400,
        'BAD_REQUEST',
      );
      expectError(
        await t.request
          .post('/post')
          .set(user.auth)
          .send(generalBody(user, { mediaIds: [ids[0], ids[0]] })),
        400,
        'BAD_REQUEST',
      );
    });

    it('an upload no post took within 24 h is deleted by the clean-up job; a newer one stays', async () => {
      const [old, fresh] = await Promise.all(
        [1, 2].map(async () => (await upload(t, user, await images.png())).body),
      );
      await t.db
        .update(mediaTable)
        .set({ createdAt: sql`now() - interval '25 hours'` })
        .where(eq(mediaTable.id, old.id));
      await t.services.media.cleanUp();
      expect(await mediaRow(t, old.id)).toBeUndefined();
      expect((await fetchFile(t, old.url)).status).toBe(404);
      expect((await fetchFile(t, fresh.url)).status).toBe(200);
    });
  });

  describe('avatars', () => {
    it('PUT: a 256 px square, on the user, their posts, comments and likes; replaced → the old one 404; DELETE → null', async () => {
      const first = await t.request
        .put('/autenticacao/usuario-atual/avatar')
        .set(other.auth)
        .attach('file', await images.jpegWithGps(), 'me.jpg');
      expect(first.status).toBe(200);
      expect(first.body.dados).toMatchObject({
        id: other.id,
        nickname: other.nickname,
        avatarUrl: expect.stringMatching(/^\/media\/files\//),
      });
      const avatarUrl = first.body.dados.avatarUrl as string;
      const me = await t.request.get('/autenticacao/usuario-atual').set(other.auth);
      expect(me.body.dados).toMatchObject({ id: other.id, avatarUrl });
      const file = await fetchFile(t, avatarUrl);
      expect(await imageSize(file.bytes)).toMatchObject({
        width: 256,
        height: 256,
        exif: undefined,
      });

      const post = await t.request.post('/post').set(other.auth).send(generalBody(other));
      expect(post.body.authorAvatarUrl).toBe(avatarUrl);
      await t.request.post(`/post/${post.body.id}/comment`).set(other.auth).send({ content: 'hi' });
      await t.request.post(`/post/${post.body.id}/like`).set(other.auth);
      const read = await t.request.get(`/post/${post.body.id}`).set(user.auth);
      expect(read.body.comments[0].author.avatarUrl).toBe(avatarUrl);
      expect(read.body.likes[0].avatarUrl).toBe(avatarUrl);
      const list = await t.request.get(`/post?authorId=${other.id}`).set(user.auth);
      expect(list.body.data[0].authorAvatarUrl).toBe(avatarUrl);

      const second = await t.request
        .put('/autenticacao/usuario-atual/avatar')
        .set(other.auth)
        .attach('file', await images.png(300, 200), 'me.png');
      expect(second.body.dados.avatarUrl).not.toBe(avatarUrl);
      // Served a moment ago (its facts cached for up to a minute): 404 once the job took its files.
      await t.services.media.cleanUp();
      expect((await fetchFile(t, avatarUrl)).status).toBe(404);

      expect(
        (await t.request.delete('/autenticacao/usuario-atual/avatar').set(other.auth)).status,
      ).toBe(204);
      expect((await fetchFile(t, second.body.dados.avatarUrl)).status).toBe(404);
      const after = await t.request.get(`/post/${post.body.id}`).set(user.auth);
      expect(after.body.authorAvatarUrl).toBeNull();
      expect(after.body.comments[0].author.avatarUrl).toBeNull();
      const meAfter = await t.request.get('/autenticacao/usuario-atual').set(other.auth);
      expect(meAfter.body.dados.avatarUrl).toBeNull();
    });

    it('account erasure: the avatar and unused uploads go; photos of posts that stay stay; the export lists uploads', async () => {
      const leaving = await t.createUser();
      const avatar = await t.request
        .put('/autenticacao/usuario-atual/avatar')
        .set(leaving.auth)
        .attach('file', await images.png(), 'a.png');
      const [unused, used] = await Promise.all(
        [1, 2].map(async () => (await upload(t, leaving, await images.png())).body),
      );
      await t.request
        .post('/post')
        .set(leaving.auth)
        .send(generalBody(leaving, { mediaIds: [used.id] }));
      const exported = await t.request.get('/autenticacao/meus-dados').set(leaving.auth);
      expect(exported.body.dados.fotos.map((f: { url: string }) => f.url).sort()).toEqual(
        [avatar.body.dados.avatarUrl, unused.url, used.url].sort(),
      );
      const gone = await t.request
        .delete('/autenticacao/conta')
        .set(leaving.auth)
        .send({ senha: leaving.password });
      expect(gone.status).toBe(204);
      expect((await fetchFile(t, avatar.body.dados.avatarUrl)).status).toBe(404);
      expect((await fetchFile(t, unused.url)).status).toBe(404);
      expect((await fetchFile(t, used.url)).status).toBe(200);
      await t.services.media.cleanUp();
      expect(await mediaRow(t, unused.id)).toBeUndefined();
      expect((await mediaRow(t, used.id))?.ownerId).toBeNull();
    });
  });

  const uploadsOf = async (who: TestUser) =>
    (
      await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(mediaTable)
        .where(eq(mediaTable.ownerId, who.id))
    )[0]!.n;
}
