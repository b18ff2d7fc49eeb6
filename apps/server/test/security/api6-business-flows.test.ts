import { matchPlayers, postLikes, posts, users } from '@campus/core';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, type TestUser, onTestApp } from '../support/app';
import { createPost } from '../support/feed';
import { createMatch } from '../support/matches';
import { registration } from '../support/students';
import { appWithRateLimits } from './support';

/**
 * Flows a script could abuse at scale: creating accounts, grabbing match spots, inflating
 * counters, probing which e-mails exist. Capacity under simultaneous subscribes, across processes,
 * is the matches suite's (matches/concurrency.test.ts) and the lead's benchmark.
 */
let t: TestApp;
let owner: TestUser;
onTestApp(async (app) => {
  t = app;
  owner = await t.createUser();
});

const userCount = async () =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n;

describe('API6:2023 Unrestricted Access to Sensitive Business Flows', () => {
  it('mass registration from one address is cut off by the limit: 429, and only the allowed accounts exist', async () => {
    const limited = appWithRateLimits(t, { authMax: 5 });
    const before = await userCount();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await limited.request.post('/autenticacao/cadastro').send(registration())).status,
      );
    // /trpc is the same flow, counted in the same window.
    statuses.push(
      (await limited.request.post('/trpc/students.register').send(registration())).status,
    );
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    expect(await userCount()).toBe(before + 5);
  });

  it('subscription spam (subscribe/unsubscribe in a loop) is cut off by the per-address ceiling', async () => {
    const limited = appWithRateLimits(t, { globalMax: 20 });
    const match = await createMatch(t, owner);
    const player = await t.createUser();
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      statuses.push(
        (await limited.request.post(`/match/${match.id}/subscribe`).set(player.auth)).status,
      );
      statuses.push(
        (await limited.request.delete(`/match/${match.id}/unsubscribe`).set(player.auth)).status,
      );
    }
    expect(statuses.slice(0, 20)).toEqual(Array.from({ length: 10 }, () => [201, 200]).flat());
    expect(new Set(statuses.slice(20))).toEqual(new Set([429]));
    limited.stop();
    const rows = await t.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, match.id));
    expect(rows.length).toBeLessThanOrEqual(1);
  });

  it('one user cannot take more than one spot: 20 simultaneous subscribes → one 201, nineteen 409', async () => {
    const match = await createMatch(t, owner, { maxPlayers: 20 });
    const player = await t.createUser();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.request.post(`/match/${match.id}/subscribe`).set(player.auth),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 201))
      expect(expectError(res, 409, 'CONFLICT').reason).toBe('ALREADY_SUBSCRIBED');
    const rows = await t.db
      .select()
      .from(matchPlayers)
      .where(and(eq(matchPlayers.matchId, match.id), eq(matchPlayers.userId, player.id)));
    expect(rows).toHaveLength(1);
  });

  it('counters cannot be inflated: 20 simultaneous likes and reports by one user count once', async () => {
    const post = await createPost(t, owner);
    const liker = await t.createUser();
    const likes = await Promise.all(
      Array.from({ length: 20 }, () => t.request.post(`/post/${post.id}/like`).set(liker.auth)),
    );
    const reports = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.request.post(`/post/${post.id}/report`).set(liker.auth).send({ reason: 'Spam' }),
      ),
    );
    expect(likes.filter((r) => r.status === 201)).toHaveLength(1);
    expect(likes.filter((r) => r.status === 409)).toHaveLength(19);
    expect(reports.filter((r) => r.status === 201)).toHaveLength(1);
    expect(reports.filter((r) => r.status === 409)).toHaveLength(19);
    expect(await t.db.select().from(postLikes).where(eq(postLikes.postId, post.id))).toHaveLength(
      1,
    );
    expect((await t.db.select().from(posts).where(eq(posts.id, post.id)))[0]!.likesCount).toBe(1);
  });

  it('one person, one account: the same e-mail in another case, or the same nickname → 409', async () => {
    const first = registration();
    await t.request.post('/autenticacao/cadastro').send(first).expect(201);
    const sameEmail = registration({ email: first.email.toUpperCase() });
    expect(
      expectError(await t.request.post('/autenticacao/cadastro').send(sameEmail), 409, 'CONFLICT')
        .reason,
    ).toBe('EMAIL_IN_USE');
    const sameNickname = registration({ nickname: first.nickname });
    expect(
      expectError(
        await t.request.post('/autenticacao/cadastro').send(sameNickname),
        409,
        'CONFLICT',
      ).reason,
    ).toBe('NICKNAME_IN_USE');
  });

  it('probing which e-mails have accounts (the public availability check) is held by the per-address ceiling', async () => {
    // The spec makes e-mail availability public; what bounds an enumeration is the global limit.
    const limited = appWithRateLimits(t, { globalMax: 10 });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (
          await limited.request.get(
            `/autenticacao/alunos/email-disponivel?email=probe${i}@campus.test`,
          )
        ).status,
      );
    }
    expect(statuses).toEqual([...Array.from({ length: 10 }, () => 200), 429, 429]);
    limited.stop();
  });
});
