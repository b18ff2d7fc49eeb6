import { describe, it } from 'vitest';
import { UNKNOWN, example } from '../support/openapi-walk';
import type { Walk } from '../support/openapi-walk';

/** The feed's threads and the moderation queue (docs/contract/feed.md; a part of the walk). */
export function feedReaderWalk(w: Walk) {
  const { call } = w;

  describe('feed threads and moderation', () => {
    it('sub-lists, comment edit and report, the queue and a decision', async () => {
      const body = example('POST', '/post', { author: w.ana.nickname, authorId: w.ana.id });
      const post = await call('POST', '/post', 201, { as: w.ana, body });
      const id = (post.body as { id: string }).id;
      await call('GET', `/post?q=campus&type=EVENT&upcoming=true`, 200, { as: w.bia });
      await call('GET', `/post?following=maybe`, 400, { as: w.bia });

      const comment = await call('POST', `/post/${id}/comment`, 201, {
        as: w.bia,
        body: example('POST', '/post/{id}/comment'),
      });
      const commentId = (comment.body as { id: string }).id;
      await call('GET', `/post/${id}/comment?limit=5`, 200, { as: w.ana });
      await call('GET', `/post/${UNKNOWN}/comment`, 404, { as: w.ana });
      await call('GET', `/post/${id}/like`, 200, { as: w.ana });
      await call('GET', `/post/${id}/like?limit=51`, 400, { as: w.ana });
      await call('GET', `/post/${id}/attendance`, 200, { as: w.ana });
      await call('GET', `/post/${UNKNOWN}/attendance`, 404, { as: w.ana });

      const edit = example('PATCH', '/comment/{id}');
      await call('PATCH', `/comment/${commentId}`, 200, { as: w.bia, body: edit });
      await call('PATCH', `/comment/${commentId}`, 403, { as: w.ana, body: edit });
      await call('PATCH', `/comment/${UNKNOWN}`, 404, { as: w.bia, body: edit });

      const report = example('POST', '/comment/{id}/report');
      await call('POST', `/comment/${commentId}/report`, 201, { as: w.ana, body: report });
      await call('POST', `/comment/${commentId}/report`, 409, { as: w.ana, body: report });
      await call('POST', `/comment/${UNKNOWN}/report`, 404, { as: w.ana, body: report });

      await call('GET', '/admin/denuncias', 200, { as: w.admin });
      await call('GET', '/admin/denuncias?status=RESOLVIDA', 200, { as: w.admin });
      await call('GET', '/admin/denuncias', 403, { as: w.ana });
      const decision = example('PATCH', '/admin/denuncias/{tipo}/{id}');
      await call('PATCH', `/admin/denuncias/COMENTARIO/${commentId}`, 200, {
        as: w.admin,
        body: decision,
      });
      await call('PATCH', `/admin/denuncias/POST/${UNKNOWN}`, 404, { as: w.admin, body: decision });
      await call('PATCH', `/admin/denuncias/POST/${id}`, 403, { as: w.bia, body: decision });
      await call('DELETE', `/post/${id}`, 204, { as: w.ana });
    });
  });
}
