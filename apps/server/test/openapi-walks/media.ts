import { describe, expect, it } from 'vitest';
import { UNKNOWN, type Walk } from '../support/openapi-walk';
import { png, text } from '../support/images';

/** Photos (docs/contract/media.md): multipart uploads (photo, avatar, group logo), taken and refused (a part of the walk). */
export function mediaWalk(w: Walk) {
  describe('photos', () => {
    it('an upload, one that is not an image, and a removal', async () => {
      let id = '';
      for (const [bytes, status] of [
        [await png(), 201],
        [text(), 415],
      ] as const) {
        const res = await w.t.request
          .post('/media')
          .set(w.ana.auth)
          .field('alt', 'A blue square')
          .attach('file', bytes, 'image.png');
        expect(res.status).toBe(status);
        w.record('POST', '/media', res.status);
        if (status === 201) id = (res.body as { id: string }).id;
      }
      await w.call('DELETE', `/media/${id}`, 204, { as: w.ana });
      await w.call('DELETE', `/media/${id}`, 404, { as: w.ana });
      for (const [bytes, status] of [
        [await png(), 200],
        [text(), 415],
      ] as const) {
        const res = await w.t.request
          .put('/autenticacao/usuario-atual/avatar')
          .set(w.ana.auth)
          .attach('file', bytes, 'me.png');
        expect(res.status).toBe(status);
        w.record('PUT', '/autenticacao/usuario-atual/avatar', res.status);
      }
      await w.call('DELETE', '/autenticacao/usuario-atual/avatar', 204, { as: w.ana });
      await w.call('DELETE', '/autenticacao/usuario-atual/avatar', 401);
    });

    it("a group's logo: set, refused, removed", async () => {
      const group = await w.call('POST', '/group', 201, {
        as: w.ana,
        body: { name: `Logo ${w.ana.nickname}`, groupType: 'OTHER' },
      });
      const id = (group.body as { id: string }).id;
      for (const [who, bytes, status] of [
        [w.ana, await png(), 200],
        [w.ana, text(), 415],
        [w.bia, await png(), 403],
      ] as const) {
        const res = await w.t.request
          .put(`/group/${id}/logo`)
          .set(who.auth)
          .attach('file', bytes, 'logo.png');
        expect(res.status).toBe(status);
        w.record('PUT', `/group/${id}/logo`, res.status);
      }
      await w.call('DELETE', `/group/${id}/logo`, 403, { as: w.bia });
      await w.call('DELETE', `/group/${id}/logo`, 204, { as: w.ana });
      await w.call('DELETE', `/group/${UNKNOWN}/logo`, 404, { as: w.ana });
    });
  });
}
