import { and, asc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { discardUnusedMedia } from '../media/personal-data';
import { revokeUserSessions } from '../auth/sessions';
import type { Transaction } from '../db/client';
import { conflict, notFound } from '../errors';
import { publish } from '../events/bus';
import { movedCounter, perUserRows, type PerUserRows } from '../feed/locks';
import { postComments, posts } from '../feed/table';
import { lockGroup } from '../groups/access';
import { groupMembers } from '../groups/table';
import { entriesOf, leaveMatch } from '../matches/seats';
import { matches } from '../matches/table';
import { notifications } from '../notifications/table';
import { users } from '../users/table';

/**
 * The author shown for what a deleted account leaves behind (posts, comments, matches it
 * organised): one shared account that cannot sign in (no e-mail address, no usable password),
 * so nothing left links back to the person and two deleted authors look alike.
 */
export const REMOVED_USER = {
  id: '00000000-0000-4000-8000-000000000000',
  nome: 'Usuário removido',
  /** Not a valid nickname for registration (accents, a space), so no one can take it. */
  nickname: 'Usuário removido',
  /** Not an e-mail address, so no login, reset or registration reaches it. */
  email: 'usuario-removido',
} as const;

async function ensureRemovedUser(tx: Transaction) {
  await tx
    .insert(users)
    .values({ ...REMOVED_USER, passwordHash: '!', perfil: 'ALUNO', status: 'INATIVO' })
    .onConflictDoNothing();
}

const postsOf = (tx: Transaction, kind: PerUserRows, userId: string) =>
  tx.select({ id: kind.table.postId }).from(kind.table).where(eq(kind.table.userId, userId));

/**
 * Locks every post the user likes or attends, in id order, before their counters move: two
 * deletions sharing posts cannot deadlock, and no like or unlike of them runs in between.
 */
async function lockTheirPosts(tx: Transaction, userId: string) {
  await tx
    .select({ id: posts.id })
    .from(posts)
    .where(
      or(
        inArray(posts.id, postsOf(tx, perUserRows.like, userId)),
        inArray(posts.id, postsOf(tx, perUserRows.attendance, userId)),
      ),
    )
    .orderBy(asc(posts.id))
    .for('no key update');
}

/** Deletes the user's rows of one kind and takes each off its post's counter. */
async function takeOff(tx: Transaction, kind: PerUserRows, userId: string) {
  const touched = await tx
    .update(posts)
    .set(movedCounter(kind, -1))
    .where(inArray(posts.id, postsOf(tx, kind, userId)))
    .returning({ id: posts.id });
  await tx.delete(kind.table).where(eq(kind.table.userId, userId));
  for (const post of touched) await publish(tx, 'post', { key: post.id });
}

/**
 * Erases an account in `tx` (docs/contract/accounts.md, Export and deletion): refused with 409
 * LAST_OWNER while it is a group's only OWNER; its match places are given up; its likes and
 * attendances go with their counters; its posts, comments and matches stay under "Usuário
 * removido"; other people's notifications that named it say "Usuário removido"; its sessions end;
 * then the account row is deleted, and with it (foreign keys, ON DELETE CASCADE) everything else
 * that is its own.
 */
export async function eraseAccount(tx: Transaction, userId: string): Promise<void> {
  const [user] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!user) throw notFound('Usuário não encontrado');

  // Groups first, each locked (in id order) as leaving one is: the last OWNER cannot go.
  const owned = await tx
    .select({ groupId: groupMembers.groupId })
    .from(groupMembers)
    .where(and(eq(groupMembers.userId, userId), eq(groupMembers.role, 'OWNER')))
    .orderBy(asc(groupMembers.groupId));
  for (const { groupId } of owned) {
    await lockGroup(tx, groupId);
    const [owners] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(groupMembers)
      .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.role, 'OWNER')));
    if ((owners?.n ?? 0) <= 1) {
      throw conflict(
        'Você é o único dono de um grupo: passe a posse a outro membro ou exclua o grupo antes',
        'LAST_OWNER',
      );
    }
  }

  // Out of every match, playing or waiting, as leaving does: a freed seat goes to the first in
  // line. In match id order, so two deletions sharing matches cannot deadlock.
  for (const matchId of await entriesOf(tx, userId)) await leaveMatch(tx, matchId, userId);

  // Counters stay exact: each like and attendance is taken off its post before the rows go.
  await lockTheirPosts(tx, userId);
  await takeOff(tx, perUserRows.like, userId);
  await takeOff(tx, perUserRows.attendance, userId);

  // Other people's POST_COMMENT and GROUP_JOIN_REQUEST notifications begin with the person's
  // nickname ("maria comentou…", "maria pediu para entrar…"): they now name "Usuário removido".
  const [{ nickname } = { nickname: '' }] = await tx
    .select({ nickname: users.nickname })
    .from(users)
    .where(eq(users.id, userId));
  await tx
    .update(notifications)
    .set({
      message: sql`${REMOVED_USER.nome} || substr(${notifications.message}, ${nickname.length + 1})`,
    })
    .where(
      and(
        ne(notifications.userId, userId),
        sql`left(${notifications.message}, ${nickname.length + 1}) = ${`${nickname} `}`,
        or(
          and(
            eq(notifications.type, 'POST_COMMENT'),
            sql`${notifications.data}->>'commentId' in (select ${postComments.id}::text from ${postComments} where ${postComments.authorId} = ${userId})`,
          ),
          eq(notifications.type, 'GROUP_JOIN_REQUEST'),
        ),
      ),
    );

  await ensureRemovedUser(tx);
  await tx
    .update(posts)
    .set({ authorId: REMOVED_USER.id, author: REMOVED_USER.nickname })
    .where(eq(posts.authorId, userId));
  await tx
    .update(postComments)
    .set({ authorId: REMOVED_USER.id })
    .where(eq(postComments.authorId, userId));
  await tx.update(matches).set({ authorId: REMOVED_USER.id }).where(eq(matches.authorId, userId));

  await discardUnusedMedia(tx, userId);
  // SEAM: every "end every session" goes through revokeUserSessions.
  await revokeUserSessions(tx, userId);
  await tx.delete(users).where(eq(users.id, userId));
}
