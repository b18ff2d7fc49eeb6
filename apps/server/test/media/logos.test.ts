import { diskStorage, groups } from '@campus/core';
import { eq } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, UNKNOWN_ID, type TestApp, type TestUser } from '../support/app';
import { addMember, createGroup } from '../support/groups';
import * as images from '../support/images';
import { fetchFile, imageSize, mediaRow } from './support';

/** Group logos (docs/contract/media.md, Group logos) over HTTP, on disk storage. */
describe('group logos', () => {
  let t: TestApp;
  let directory: string;
  let owner: TestUser;
  let groupAdmin: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let siteAdmin: TestUser;
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'campus-logo-test-'));
    t = await startTestApp({ media: { storage: diskStorage(directory) } });
    [owner, groupAdmin, member, stranger, siteAdmin] = await Promise.all([
      t.createUser(),
      t.createUser(),
      t.createUser(),
      t.createUser(),
      t.createUser({ perfil: 'ADMIN' }),
    ]);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const putLogo = (groupId: string, user: TestUser, bytes: Buffer, name = 'logo.jpg') =>
    t.request.put(`/group/${groupId}/logo`).set(user.auth).attach('file', bytes, name);
  const logoRow = async (groupId: string) =>
    (await t.db.select({ id: groups.logoMediaId }).from(groups).where(eq(groups.id, groupId)))[0]
      ?.id;

  it('PUT: a 256 px square on the group, its reads and lists; replaced → the old one 404; DELETE → null', async () => {
    const group = await createGroup(t, owner);
    expect(group.logoUrl).toBeNull();

    const first = await putLogo(group.id, owner, await images.jpegWithGps());
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      id: group.id,
      name: group.name,
      myRole: 'OWNER',
      logoUrl: expect.stringMatching(/^\/media\/files\/[A-Za-z0-9_-]{24}\.webp$/),
    });
    const logoUrl = first.body.logoUrl as string;
    const file = await fetchFile(t, logoUrl);
    expect(file.status).toBe(200);
    expect(await imageSize(file.bytes)).toMatchObject({ width: 256, height: 256, exif: undefined });
    for (const secret of images.SECRETS) expect(file.bytes.includes(secret)).toBe(false);

    expect((await t.request.get(`/group/${group.id}`).set(stranger.auth)).body.logoUrl).toBe(
      logoUrl,
    );
    const listed = await t.request
      .get(`/group?q=${encodeURIComponent(group.name)}`)
      .set(stranger.auth);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: group.id, logoUrl })]);
    const mine = await t.request.get('/group?mine=true').set(owner.auth);
    expect(mine.body.data.find((g: { id: string }) => g.id === group.id).logoUrl).toBe(logoUrl);

    const second = await putLogo(group.id, owner, await images.png(300, 200), 'logo.png');
    expect(second.status).toBe(200);
    expect(second.body.logoUrl).not.toBe(logoUrl);
    // Served a moment ago (its facts cached for up to a minute): 404 once the job took its files.
    await t.services.media.cleanUp();
    expect((await fetchFile(t, logoUrl)).status).toBe(404);
    expect(await imageSize((await fetchFile(t, second.body.logoUrl)).bytes)).toMatchObject({
      width: 256,
      height: 256,
    });

    expect((await t.request.delete(`/group/${group.id}/logo`).set(owner.auth)).status).toBe(204);
    expect(await logoRow(group.id)).toBeNull();
    await t.services.media.cleanUp();
    expect((await fetchFile(t, second.body.logoUrl)).status).toBe(404);
    expect((await t.request.get(`/group/${group.id}`).set(owner.auth)).body.logoUrl).toBeNull();
    // Without a logo, DELETE changes nothing.
    expect((await t.request.delete(`/group/${group.id}/logo`).set(owner.auth)).status).toBe(204);
  });

  it('a group ADMIN and a site ADMIN may; a MEMBER and a stranger get 403; an unknown group 404', async () => {
    const group = await createGroup(t, owner);
    await addMember(t, group.id, owner, groupAdmin, 'ADMIN');
    await addMember(t, group.id, owner, member);
    expect((await putLogo(group.id, groupAdmin, await images.png())).status).toBe(200);
    expect((await putLogo(group.id, siteAdmin, await images.png())).status).toBe(200);
    const before = await logoRow(group.id);

    for (const user of [member, stranger]) {
      const refused = await putLogo(group.id, user, await images.png());
      expect(expectError(refused, 403, 'FORBIDDEN').reason).toBe('GROUP_FORBIDDEN');
      expectError(
        await t.request.delete(`/group/${group.id}/logo`).set(user.auth),
        403,
        'FORBIDDEN',
      );
    }
    expect(await logoRow(group.id)).toBe(before);
    const missing = await putLogo(UNKNOWN_ID, owner, await images.png());
    expect(expectError(missing, 404, 'NOT_FOUND').reason).toBe('GROUP_NOT_FOUND');
    expectError(
      await t.request.delete(`/group/${UNKNOWN_ID}/logo`).set(owner.auth),
      404,
      'NOT_FOUND',
    );
    expectError(await t.request.put(`/group/${group.id}/logo`).set(owner.auth), 400, 'BAD_REQUEST');
    const notImage = await putLogo(group.id, owner, images.text(), 'logo.txt');
    expectError(notImage, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await logoRow(group.id)).toBe(before);
  });

  it('deleting the group discards its logo; the uploader erased, the logo stays', async () => {
    const leaving = await t.createUser();
    const kept = await createGroup(t, owner);
    await addMember(t, kept.id, owner, leaving, 'ADMIN');
    const keptLogo = (await putLogo(kept.id, leaving, await images.png())).body.logoUrl as string;
    const gone = await t.request
      .delete('/autenticacao/conta')
      .set(leaving.auth)
      .send({ senha: leaving.password });
    expect(gone.status).toBe(204);
    expect((await fetchFile(t, keptLogo)).status).toBe(200);

    const group = await createGroup(t, owner);
    const logo = await putLogo(group.id, owner, await images.png());
    const mediaId = await logoRow(group.id);
    expect((await t.request.delete(`/group/${group.id}`).set(owner.auth)).status).toBe(204);
    expect((await mediaRow(t, mediaId!))?.discardedAt).toBeInstanceOf(Date);
    await t.services.media.cleanUp();
    expect((await fetchFile(t, logo.body.logoUrl)).status).toBe(404);
    expect(await mediaRow(t, mediaId!)).toBeUndefined();
  });

  it('/trpc takes FormData with the group id as a part', async () => {
    const group = await createGroup(t, owner);
    const form = new FormData();
    form.append('id', group.id);
    form.append('file', new Blob([await images.jpeg(300, 200)]), 'x.jpg');
    const res = await fetch(`${t.baseUrl}/trpc/groups.setLogo`, {
      method: 'POST',
      headers: owner.auth,
      body: form,
    });
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: { data: Record<string, unknown> } };
    expect(result.data).toMatchObject({ id: group.id, logoUrl: expect.any(String) });
    expect((await fetchFile(t, result.data.logoUrl as string)).status).toBe(200);
  });
});
