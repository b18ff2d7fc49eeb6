import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWithUsers, type TestUser } from '../support/app';
import { createEvent, createPost, flagOf, generalBody } from '../support/feed';
import { createGroup } from '../support/groups';

/*
 * The feed seen by its reader (docs/contract/feed.md, Listing): the caller's flags on every post,
 * and the filters of GET /post. Each test writes as a fresh author, so `authorId` makes its totals
 * exact.
 */

const { t, users } = onTestAppWithUsers({}, {});
const [reader, other] = users;

type Item = {
  id: string;
  title: string;
  likedByMe: boolean;
  attendingByMe: boolean;
  hidden: boolean;
};
const list = async (as: TestUser, query: string) => {
  const res = await t.request.get(`/post${query}`).set(as.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: Item[]; meta: { totalCount: number; totalPages: number } };
};
const titles = (body: { data: Item[] }) => body.data.map((p) => p.title);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('likedByMe and attendingByMe', () => {
  it('each post says whether the caller likes it and attends it, in lists and reads', async () => {
    const author = await t.createUser();
    const liked = await createPost(t, author, generalBody(author, { title: 'Liked' }));
    const attended = await createEvent(t, author, { title: 'Attended' });
    await createPost(t, author, generalBody(author, { title: 'Untouched' }));
    expect((await t.request.post(`/post/${liked.id}/like`).set(reader.auth)).status).toBe(201);
    expect((await t.request.post(`/post/${attended.id}/attendance`).set(reader.auth)).status).toBe(
      201,
    );

    const mine = await list(reader, `?authorId=${author.id}`);
    const flags = Object.fromEntries(
      mine.data.map((p) => [p.title, [p.likedByMe, p.attendingByMe]]),
    );
    expect(flags).toEqual({
      Liked: [true, false],
      Attended: [false, true],
      Untouched: [false, false],
    });
    // Another reader sees the same posts without the first reader's flags.
    const theirs = await list(other, `?authorId=${author.id}`);
    expect(theirs.data).toHaveLength(3);
    expect(theirs.data.every((p) => !p.likedByMe && !p.attendingByMe)).toBe(true);
    // The unfiltered list carries them too.
    const all = await list(reader, '?limit=50');
    expect(all.data.find((p) => p.id === liked.id)?.likedByMe).toBe(true);

    const read = await t.request.get(`/post/${attended.id}`).set(reader.auth);
    expect(read.body).toMatchObject({ likedByMe: false, attendingByMe: true, hidden: false });
    await t.request.delete(`/post/${attended.id}/attendance`).set(reader.auth);
    const after = await t.request.get(`/post/${attended.id}`).set(reader.auth);
    expect(after.body.attendingByMe).toBe(false);
  });
});

describe('GET /post filters', () => {
  it('type, authorId and groupId, combinable, with an exact totalCount', async () => {
    const author = await t.createUser();
    const group = await createGroup(t, author);
    await createPost(t, author, generalBody(author, { title: 'G1', groupId: group.id }));
    await createEvent(t, author, { title: 'E1', groupId: group.id });
    await createEvent(t, author, { title: 'E2' });
    await createPost(t, author, generalBody(author, { title: 'G2' }));

    const events = await list(reader, `?authorId=${author.id}&type=EVENT`);
    expect(titles(events).sort()).toEqual(['E1', 'E2']);
    expect(events.meta.totalCount).toBe(2);
    const inGroup = await list(reader, `?groupId=${group.id}`);
    expect(titles(inGroup)).toEqual(['E1', 'G1']);
    const both = await list(reader, `?groupId=${group.id}&type=GENERAL&authorId=${author.id}`);
    expect(titles(both)).toEqual(['G1']);
    expect(both.meta.totalCount).toBe(1);
    const paged = await list(reader, `?authorId=${author.id}&limit=3&page=2`);
    expect(paged.meta).toMatchObject({ totalCount: 4, totalPages: 2 });
    expect(paged.data).toHaveLength(1);
  });

  it('q: Portuguese full-text search, accents and case ignored, stems matched, ranked', async () => {
    const author = await t.createUser();
    const body = (title: string, content: string) => generalBody(author, { title, content });
    await createPost(t, author, body('Campeonato de futsal', 'Inscrições abertas para as equipes'));
    await createPost(t, author, body('Reunião do grêmio', 'Pauta: o campeonato e as eleições'));
    await createPost(t, author, body('Aula de violão', 'Sem relação com esportes'));

    const found = await list(
      reader,
      `?authorId=${author.id}&q=${encodeURIComponent('CAMPEONATOS')}`,
    );
    // The title match (weight A) ranks above the content match (B).
    expect(titles(found)).toEqual(['Campeonato de futsal', 'Reunião do grêmio']);
    expect(found.meta.totalCount).toBe(2);
    const unaccented = await list(reader, `?authorId=${author.id}&q=reuniao%20gremio`);
    expect(titles(unaccented)).toEqual(['Reunião do grêmio']);
    const inscricao = await list(reader, `?authorId=${author.id}&q=INSCRICOES`);
    expect(titles(inscricao)).toEqual(['Campeonato de futsal']);
    const none = await list(reader, `?authorId=${author.id}&q=basquete`);
    expect(none).toMatchObject({ data: [], meta: { totalCount: 0 } });
    const bad = await t.request.get(`/post?q=${'x'.repeat(201)}`).set(reader.auth);
    expectError(bad, 400, 'BAD_REQUEST');
  });

  it('following=true: posts of the groups the caller follows', async () => {
    const author = await t.createUser();
    const follower = await t.createUser();
    const followed = await createGroup(t, author);
    const notFollowed = await createGroup(t, author);
    await createPost(t, author, generalBody(author, { title: 'F', groupId: followed.id }));
    await createPost(t, author, generalBody(author, { title: 'N', groupId: notFollowed.id }));
    await createPost(t, author, generalBody(author, { title: 'None' }));
    expect((await t.request.post(`/group/${followed.id}/follow`).set(follower.auth)).status).toBe(
      201,
    );
    const res = await list(follower, '?following=true');
    expect(titles(res)).toEqual(['F']);
    expect(res.meta.totalCount).toBe(1);
    expect((await list(reader, `?following=true&authorId=${author.id}`)).meta.totalCount).toBe(0);
    expectError(await t.request.get('/post?following=yes').set(reader.auth), 400, 'BAD_REQUEST');
  });

  it('upcoming=true: events not past, soonest first, other filters kept', async () => {
    const author = await t.createUser();
    const event = (title: string, days: number) =>
      createEvent(t, author, {
        title,
        eventDate: inDays(days),
        eventFinishDate: inDays(days + 0.1),
      });
    await event('In 14 days', 14);
    await event('Tomorrow', 1);
    await event('Yesterday', -1);
    await createPost(t, author, generalBody(author, { title: 'Newest, not an event' }));
    const res = await list(reader, `?upcoming=true&authorId=${author.id}`);
    expect(titles(res)).toEqual(['Tomorrow', 'In 14 days']);
    expect(res.meta.totalCount).toBe(2);
    const searched = await list(reader, `?upcoming=true&authorId=${author.id}&q=tomorrow`);
    expect(titles(searched)).toEqual(['Tomorrow']);
  });
});

/* The flags are a probe of the (post_id, user_id) rows: true for that user only, and no more. */
describe('the reader flags after an add and a removal', () => {
  for (const kind of ['like', 'attendance'] as const) {
    it(`${kind}: true for that user only, false again after the removal`, async () => {
      const author = await t.createUser();
      const post = kind === 'like' ? await createPost(t, author) : await createEvent(t, author);
      const [adder, bystander] = await t.createUsers({}, {});
      expect((await t.request.post(`/post/${post.id}/${kind}`).set(adder.auth)).status).toBe(201);
      expect(await flagOf(t, adder, post.id, author.id, kind)).toBe(true);
      expect(await flagOf(t, bystander, post.id, author.id, kind)).toBe(false);
      expect(await flagOf(t, author, post.id, author.id, kind)).toBe(false);
      expect((await t.request.delete(`/post/${post.id}/${kind}`).set(adder.auth)).status).toBe(204);
      expect(await flagOf(t, adder, post.id, author.id, kind)).toBe(false);
    });
  }
});
