import { SPORTS } from '@campus/core';
import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers } from '../support/app';
import { createGroup, join } from '../support/groups';
import { createMatch, insertMatch } from '../support/matches';

/**
 * Sport, organising group, "mine" and scores (docs/contract/matches.md, Sport, group and scores).
 */

const { t, users } = onTestAppWithUsers({}, {}, {}, { perfil: 'ADMIN' });
const [owner, member, stranger, admin] = users;

describe('GET /match/sports', () => {
  it('lists every sport code with its Portuguese name, cacheable, without a token', async () => {
    const res = await t.request.get('/match/sports');
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeTruthy();
    expect(res.body.data).toContainEqual({ code: 'VOLEI_DE_PRAIA', name: 'Vôlei de praia' });
    // Every sport the match schema accepts, in its declared order.
    expect(res.body.data.map((s: { code: string }) => s.code)).toEqual([...SPORTS]);
  });
});

describe('sport and organising group', () => {
  it('create with sport and a group the caller owns: shown with the group name; filters sport and groupId', async () => {
    const group = await createGroup(t, owner!);
    const match = await createMatch(t, owner!, { sport: 'FUTSAL', groupId: group.id });
    expect(match).toMatchObject({
      sport: 'FUTSAL',
      groupId: group.id,
      group: group.name,
      groupVerified: false,
    });
    await createMatch(t, owner!, { sport: 'VOLEI' });
    const bySport = await t.request.get('/match?sport=FUTSAL&limit=50').set(owner!.auth);
    expect(bySport.body.data.map((m: { id: string }) => m.id)).toEqual([match.id]);
    expect(bySport.body.meta.totalCount).toBe(1);
    const byGroup = await t.request.get(`/match?groupId=${group.id}`).set(owner!.auth);
    expect(byGroup.body.data.map((m: { id: string }) => m.id)).toEqual([match.id]);
    expectError(await t.request.get('/match?sport=XADREZ').set(owner!.auth), 400, 'BAD_REQUEST');
  });

  it('403 GROUP_FORBIDDEN for a MEMBER or a stranger, 404 GROUP_NOT_FOUND for an unknown group', async () => {
    const group = await createGroup(t, owner!);
    await join(t, group.id, owner!, member!);
    for (const user of [member!, stranger!]) {
      const res = await t.request.post('/match').set(user.auth).send({
        userId: user.id,
        title: 'Racha',
        maxPlayers: 10,
        MatchDate: '2036-05-01T18:00:00Z',
        location: 'Quadra',
        groupId: group.id,
      });
      expect(expectError(res, 403, 'FORBIDDEN').reason).toBe('GROUP_FORBIDDEN');
    }
    const unknown = await t.request.post('/match').set(owner!.auth).send({
      userId: owner!.id,
      title: 'Racha',
      maxPlayers: 10,
      MatchDate: '2036-05-01T18:00:00Z',
      location: 'Quadra',
      groupId: '3f1b7f9e-0000-4000-8000-000000000000',
    });
    expect(expectError(unknown, 404, 'NOT_FOUND').reason).toBe('GROUP_NOT_FOUND');
  });

  it("the group's ADMIN may edit the group's match; a MEMBER may not", async () => {
    const group = await createGroup(t, owner!);
    await join(t, group.id, owner!, member!);
    const match = await createMatch(t, owner!, { groupId: group.id });
    const refused = await t.request
      .patch(`/match/${match.id}`)
      .set(member!.auth)
      .send({ title: 'Outro' });
    expect(expectError(refused, 403, 'FORBIDDEN').reason).toBe('NOT_OWNER');
    await t.request
      .patch(`/group/${group.id}/members/${member!.id}`)
      .set(owner!.auth)
      .send({ role: 'ADMIN' })
      .expect(200);
    const edited = await t.request
      .patch(`/match/${match.id}`)
      .set(member!.auth)
      .send({ title: 'Outro', sport: null });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Outro', sport: null });
  });

  it('mine=true: matches the caller created, plays in or waits for; nothing else', async () => {
    const mine = await createMatch(t, stranger!, { title: 'Minha' });
    const other = await createMatch(t, admin!, { title: 'Alheia', maxPlayers: 2 });
    const played = await createMatch(t, admin!, { title: 'Jogo' });
    await t.request.post(`/match/${played.id}/subscribe`).set(stranger!.auth).expect(201);
    const res = await t.request.get('/match?mine=true&limit=50').set(stranger!.auth);
    const ids = res.body.data.map((m: { id: string }) => m.id);
    expect(ids).toEqual(expect.arrayContaining([mine.id, played.id]));
    expect(ids).not.toContain(other.id);
    expect(res.body.meta.totalCount).toBe(ids.length);
    expect(res.body.data.find((m: { id: string }) => m.id === played.id).myTeam).toBe('A');
  });
});

describe('scores', () => {
  it('409 MATCH_NOT_FINISHED before FINALIZADA; the author sets them after, or with the PATCH that finalises', async () => {
    const match = await insertMatch(t, owner!, { status: 'EM_ANDAMENTO' });
    const early = await t.request
      .patch(`/match/${match.id}`)
      .set(owner!.auth)
      .send({ teamAScore: 3, teamBScore: 2 });
    expect(expectError(early, 409, 'CONFLICT').reason).toBe('MATCH_NOT_FINISHED');
    const done = await t.request
      .patch(`/match/${match.id}`)
      .set(owner!.auth)
      .send({ MatchStatus: 'FINALIZADA', teamAScore: 3, teamBScore: 2 });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ MatchStatus: 'FINALIZADA', teamAScore: 3, teamBScore: 2 });
    const fixed = await t.request
      .patch(`/match/${match.id}`)
      .set(admin!.auth)
      .send({ teamBScore: 4 });
    expect(fixed.body).toMatchObject({ teamAScore: 3, teamBScore: 4 });
    const stranger403 = await t.request
      .patch(`/match/${match.id}`)
      .set(stranger!.auth)
      .send({ teamAScore: 1 });
    expectError(stranger403, 403, 'FORBIDDEN');
    expectError(
      await t.request.patch(`/match/${match.id}`).set(owner!.auth).send({ teamAScore: 1000 }),
      400,
      'BAD_REQUEST',
    );
  });
});
