import { describe, it } from 'vitest';
import { UNKNOWN, example } from '../support/openapi-walk';
import type { Walk } from '../support/openapi-walk';

/** Matches and the feed (a part of the walk in openapi-responses.test.ts). */
export function activitiesWalk(w: Walk) {
  const { call } = w;

  describe('matches', () => {
    it('create, list, read, change, subscribe, switch, unsubscribe, delete', async () => {
      const body = example('POST', '/match', { userId: w.ana.id });
      const created = await call('POST', '/match', 201, { as: w.ana, body });
      const id = (created.body as { id: string }).id;
      await call('POST', '/match', 403, { as: w.bia, body });
      await call('POST', '/match', 400, {
        as: w.ana,
        body: { ...body, MatchDate: '0604-01-01T00:00:00Z' },
      });

      await call('GET', '/match?status=EM_BREVE', 200, { as: w.ana });
      await call('GET', '/match?status=SOON', 400, { as: w.ana });
      await call('GET', `/match/${id}`, 200, { as: w.bia });
      await call('GET', `/match/${UNKNOWN}`, 404, { as: w.bia });
      await call('GET', '/match/not-a-uuid', 400, { as: w.bia });

      await call('PATCH', `/match/${id}`, 200, {
        as: w.ana,
        body: example('PATCH', '/match/{id}'),
      });
      await call('PATCH', `/match/${id}`, 403, { as: w.bia, body: { title: 'Not mine' } });
      await call('PATCH', `/match/${id}`, 409, { as: w.ana, body: { MatchStatus: 'FINALIZADA' } });

      await call('POST', `/match/${id}/subscribe`, 201, { as: w.bia });
      await call('POST', `/match/${id}/subscribe`, 409, { as: w.bia });
      await call('POST', `/match/${id}/switch`, 200, { as: w.bia });
      await call('POST', `/match/${id}/switch`, 404, { as: w.ana });
      await call('DELETE', `/match/${id}/unsubscribe`, 200, { as: w.bia });
      await call('DELETE', `/match/${id}/unsubscribe`, 404, { as: w.bia });

      const small = await call('POST', '/match', 201, {
        as: w.ana,
        body: { ...body, maxPlayers: 2 },
      });
      const smallId = (small.body as { id: string }).id;
      await call('POST', `/match/${smallId}/subscribe`, 201, { as: w.ana });
      await call('POST', `/match/${smallId}/subscribe`, 201, { as: w.bia });
      await call('POST', `/match/${smallId}/switch`, 403, { as: w.bia });
      await call('POST', `/match/${smallId}/subscribe`, 403, { as: w.admin });
      await call('POST', `/match/${id}/waitlist`, 409, { as: w.admin });
      await call('POST', `/match/${smallId}/waitlist`, 201, { as: w.admin });
      await call('GET', `/match/${smallId}`, 200, { as: w.admin });
      await call('GET', '/match?mine=true&sport=FUTSAL', 200, { as: w.admin });
      await call('DELETE', `/match/${smallId}/waitlist`, 204, { as: w.admin });
      await call('DELETE', `/match/${smallId}/waitlist`, 404, { as: w.admin });
      await call('GET', '/match/sports', 200, {});
      await call('GET', `/match/${smallId}/calendar.ics`, 200, { as: w.bia });
      await call('GET', `/match/${UNKNOWN}/calendar.ics`, 404, { as: w.bia });

      await call('DELETE', `/match/${id}`, 403, { as: w.bia });
      await call('DELETE', `/match/${id}`, 204, { as: w.ana });
      await call('DELETE', `/match/${id}`, 404, { as: w.ana });
    });
  });

  describe('feed', () => {
    it('posts, comments, likes, attendances, reports', async () => {
      const body = example('POST', '/post', { author: w.ana.nickname, authorId: w.ana.id });
      const event = await call('POST', '/post', 201, { as: w.ana, body });
      const id = (event.body as { id: string }).id;
      await call('POST', '/post', 403, { as: w.bia, body });
      await call('POST', '/post', 400, { as: w.ana, body: { ...body, eventDate: 'tomorrow' } });
      const general = await call('POST', '/post', 201, {
        as: w.bia,
        body: { title: 'Study group', type: 'GENERAL', author: w.bia.nickname, authorId: w.bia.id },
      });
      const generalId = (general.body as { id: string }).id;

      await call('GET', '/post?limit=5', 200, { as: w.bia });
      await call('GET', '/post/', 200, { as: w.bia });
      await call('GET', '/post?limit=51', 400, { as: w.bia });
      await call('GET', `/post/${id}`, 200, { as: w.bia });
      await call('GET', `/post/${UNKNOWN}`, 404, { as: w.bia });
      await call('PATCH', `/post/${id}`, 200, { as: w.ana, body: example('PATCH', '/post/{id}') });
      await call('PATCH', `/post/${id}`, 403, { as: w.bia, body: { title: 'Mine now' } });
      await call('PATCH', `/post/${id}`, 400, { as: w.ana, body: {} });

      const comment = await call('POST', `/post/${id}/comment`, 201, {
        as: w.bia,
        body: example('POST', '/post/{id}/comment'),
      });
      await call('POST', `/post/${UNKNOWN}/comment`, 404, {
        as: w.bia,
        body: { content: 'Hello?' },
      });
      const commentId = (comment.body as { id: string }).id;
      await call('DELETE', `/comment/${commentId}`, 403, { as: await w.t.createUser() });
      await call('DELETE', `/comment/${commentId}`, 204, { as: w.bia });
      await call('DELETE', `/comment/${commentId}`, 404, { as: w.bia });

      await call('POST', `/post/${id}/like`, 201, { as: w.bia });
      await call('POST', `/post/${id}/like`, 409, { as: w.bia });
      await call('DELETE', `/post/${id}/like`, 204, { as: w.bia });
      await call('DELETE', `/post/${id}/like`, 404, { as: w.bia });

      await call('POST', `/post/${id}/attendance`, 201, { as: w.bia });
      await call('POST', `/post/${id}/attendance`, 409, { as: w.bia });
      await call('POST', `/post/${generalId}/attendance`, 400, { as: w.bia });
      await call('GET', `/post/${id}/calendar.ics`, 200, { as: w.bia });
      await call('GET', `/post/${generalId}/calendar.ics`, 400, { as: w.bia });
      await call('DELETE', `/post/${id}/attendance`, 204, { as: w.bia });
      await call('DELETE', `/post/${id}/attendance`, 404, { as: w.bia });

      const report = example('POST', '/post/{id}/report');
      await call('POST', `/post/${id}/report`, 201, { as: w.bia, body: report });
      await call('POST', `/post/${id}/report`, 201, { as: w.admin, body: report });
      await call('POST', `/post/${id}/report`, 409, { as: w.bia, body: report });

      await call('DELETE', `/post/${id}`, 403, { as: w.bia });
      await call('DELETE', `/post/${id}`, 204, { as: w.ana });
      await call('DELETE', `/post/not-a-uuid`, 400, { as: w.ana });
    });
  });
}
