import { describe, it } from 'vitest';
import { UNKNOWN, example } from '../support/openapi-walk';
import type { Walk } from '../support/openapi-walk';

/** Groups: join requests, members and roles, following (a part of the walk in openapi-responses.test.ts). */
export function groupsWalk(w: Walk) {
  const { call } = w;

  describe('groups', () => {
    it('groups, join requests, members and roles, following', async () => {
      const created = await call('POST', '/group', 201, {
        as: w.ana,
        body: example('POST', '/group', { name: `Atlética ${w.ana.nickname}` }),
      });
      const id = (created.body as { id: string }).id;
      await call('POST', '/group', 409, {
        as: w.bia,
        body: example('POST', '/group', { name: `ATLETICA ${w.ana.nickname}` }),
      });
      await call('POST', '/group', 400, { as: w.bia, body: { name: 'ab', groupType: 'OTHER' } });
      await call('GET', '/group?q=atletica', 200, { as: w.bia });
      await call('GET', '/group?mine=maybe', 400, { as: w.bia });
      await call('GET', `/group/${id}`, 200, { as: w.bia });
      await call('GET', `/group/${UNKNOWN}`, 404, { as: w.bia });
      await call('PATCH', `/group/${id}`, 200, {
        as: w.ana,
        body: example('PATCH', '/group/{id}'),
      });
      await call('PATCH', `/group/${id}`, 403, { as: w.bia, body: { description: 'Mine now' } });
      await call('PATCH', `/group/${id}`, 403, { as: w.ana, body: { verified: true } });
      await call('PATCH', `/group/${id}`, 200, {
        as: w.admin,
        body: { acceptingNewMembers: true },
      });

      const asked = await call('POST', `/group/${id}/requests`, 201, { as: w.bia });
      const requestId = (asked.body as { id: string }).id;
      await call('POST', `/group/${id}/requests`, 409, { as: w.bia });
      await call('POST', `/group/${UNKNOWN}/requests`, 404, { as: w.bia });
      await call('GET', `/group/${id}/requests`, 200, { as: w.ana });
      await call('GET', `/group/${id}/requests`, 403, { as: w.bia });
      await call('POST', `/group/${id}/requests/${requestId}/approve`, 403, { as: w.bia });
      await call('POST', `/group/${id}/requests/${requestId}/approve`, 200, { as: w.ana });
      await call('POST', `/group/${id}/requests/${requestId}/reject`, 409, { as: w.ana });
      await call('DELETE', `/group/${id}/requests/mine`, 404, { as: w.bia });
      const other = await call('POST', `/group/${id}/requests`, 201, { as: w.admin });
      await call('POST', `/group/${id}/requests/${(other.body as { id: string }).id}/reject`, 200, {
        as: w.ana,
      });
      await call('POST', `/group/${id}/requests`, 201, { as: w.admin });
      await call('DELETE', `/group/${id}/requests/mine`, 204, { as: w.admin });

      await call('GET', `/group/${id}/members`, 200, { as: w.bia });
      await call('GET', `/group/${UNKNOWN}/members`, 404, { as: w.bia });
      await call('PATCH', `/group/${id}/members/${w.bia.id}`, 200, {
        as: w.ana,
        body: example('PATCH', '/group/{id}/members/{userId}'),
      });
      await call('PATCH', `/group/${id}/members/${w.ana.id}`, 409, {
        as: w.ana,
        body: { role: 'MEMBER' },
      });
      await call('PATCH', `/group/${id}/members/${w.ana.id}`, 403, {
        as: w.bia,
        body: { role: 'MEMBER' },
      });
      await call('DELETE', `/group/${id}/members/${w.ana.id}`, 409, { as: w.ana });
      await call('DELETE', `/group/${id}/members/${w.ana.id}`, 403, { as: w.bia });
      await call('DELETE', `/group/${id}/members/${w.bia.id}`, 204, { as: w.bia });

      await call('POST', `/group/${id}/follow`, 201, { as: w.bia });
      await call('POST', `/group/${id}/follow`, 409, { as: w.bia });
      await call('DELETE', `/group/${id}/follow`, 204, { as: w.bia });
      await call('DELETE', `/group/${id}/follow`, 404, { as: w.bia });

      await call('DELETE', `/group/${id}`, 403, { as: w.bia });
      await call('DELETE', `/group/${id}`, 204, { as: w.ana });
      await call('DELETE', `/group/${id}`, 404, { as: w.ana });
    });
  });
}
