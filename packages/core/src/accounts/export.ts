import { eq, getTableColumns, or } from 'drizzle-orm';
import { refreshTokens } from '../auth/table';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client';
import { notFound } from '../errors';
import { examples } from '../examples/table';
import {
  commentReports,
  postAttendances,
  postComments,
  postLikes,
  postReports,
  posts,
} from '../feed/table';
import { groupFollows, groupJoinRequests, groupMembers } from '../groups/table';
import { idempotencyKeys } from '../idempotency/table';
import { mailOutbox } from '../mail/table';
import { matchPlayers, matchWaitlist, matches } from '../matches/table';
import { moderationDecisions } from '../moderation/table';
import { notifications } from '../notifications/table';
import { pushSections } from '../notifications/push/export';
import { accountStatusChanges, users } from '../users/table';
import type { PersonalData } from './schemas';
import { passwordResetTokens } from './table';
import { mediaOf } from '../media/personal-data';

/**
 * Where each table of the database stands for LGPD: the section of the export that holds the
 * caller's rows of it, or why it holds no personal data. The export test walks the database's
 * real list of tables against this map, so a table added without a decision here fails it.
 */
export const PERSONAL_DATA_TABLES = {
  users: 'conta',
  refresh_tokens: 'sessoes',
  password_reset_tokens: 'redefinicoesDeSenha',
  account_status_changes: 'historicoDeStatus',
  posts: 'posts',
  post_comments: 'comentarios',
  post_likes: 'curtidas',
  post_attendances: 'presencas',
  post_reports: 'denuncias',
  comment_reports: 'denunciasDeComentarios',
  moderation_decisions: 'decisoesDeModeracao',
  matches: 'partidasCriadas',
  match_players: 'partidasComoJogador',
  match_waitlist: 'listasDeEspera',
  group_members: 'grupos',
  group_join_requests: 'pedidosDeEntrada',
  group_follows: 'gruposSeguidos',
  notifications: 'notificacoes',
  mail_outbox: 'emails',
  examples: 'exemplos',
  idempotency_keys: 'chavesDeIdempotencia',
  push_subscriptions: 'dispositivosPush',
  push_preferences: 'preferenciasDeNotificacao',
  push_outbox: 'enviosPush',
  media: 'fotos',
} as const satisfies Record<string, Exclude<keyof PersonalData, 'geradoEm'>>;

/** Tables that hold nothing about a person, and why. */
export const IMPERSONAL_TABLES = {
  groups: 'a group is a community resource; its members are in group_members',
  row_counts: 'totals per table',
  rate_limit_hits: 'counters per client address and window, gone within the window',
  post_media: "which photos a post shows, in order; the photos' owner is in media",
  stream_leases:
    'a live stream open right now (the per-user limit), gone within a minute of its end',
  push_vapid_keys: "the service's own VAPID key pair",
} as const;

/** A row without the named secret columns, said to exist instead. */
function withoutSecrets<T extends Record<string, unknown>>(row: T, secrets: (keyof T)[]) {
  const out: Record<string, unknown> = { ...row };
  for (const key of secrets) {
    if (key in out) {
      delete out[key as string];
    }
  }
  return out;
}

/** Every personal datum held about `userId` (GET /autenticacao/meus-dados). */
export async function exportPersonalData(db: Executor, userId: string): Promise<PersonalData> {
  const [account] = await db.select().from(users).where(eq(users.id, userId));
  if (!account) throw notFound('Usuário não encontrado');
  const { tokenHash: _t, ...sessionColumns } = getTableColumns(refreshTokens);
  const { tokenHash: _r, ...resetColumns } = getTableColumns(passwordResetTokens);
  const { text: _x, html: _h, ...mailColumns } = getTableColumns(mailOutbox);
  /** Every row of `table` whose `columns` (any of them) name the person. */
  const rowsOf = (table: PgTable, ...columns: PgColumn[]) =>
    db
      .select()
      .from(table)
      .where(or(...columns.map((column) => eq(column, userId))));
  // One query per section, all at once; the section names are the export's.
  const sections = await awaitAll({
    sessoes: db.select(sessionColumns).from(refreshTokens).where(eq(refreshTokens.userId, userId)),
    redefinicoesDeSenha: db
      .select(resetColumns)
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, userId)),
    historicoDeStatus: rowsOf(
      accountStatusChanges,
      accountStatusChanges.userId,
      accountStatusChanges.changedBy,
    ),
    posts: db.select().from(posts).where(eq(posts.authorId, userId)),
    comentarios: rowsOf(postComments, postComments.authorId),
    curtidas: rowsOf(postLikes, postLikes.userId),
    presencas: rowsOf(postAttendances, postAttendances.userId),
    denuncias: rowsOf(postReports, postReports.userId),
    denunciasDeComentarios: rowsOf(commentReports, commentReports.userId),
    decisoesDeModeracao: rowsOf(moderationDecisions, moderationDecisions.adminId),
    partidasCriadas: rowsOf(matches, matches.authorId),
    partidasComoJogador: rowsOf(matchPlayers, matchPlayers.userId),
    listasDeEspera: rowsOf(matchWaitlist, matchWaitlist.userId),
    grupos: rowsOf(groupMembers, groupMembers.userId),
    pedidosDeEntrada: rowsOf(
      groupJoinRequests,
      groupJoinRequests.userId,
      groupJoinRequests.decidedBy,
    ),
    gruposSeguidos: rowsOf(groupFollows, groupFollows.userId),
    notificacoes: rowsOf(notifications, notifications.userId),
    emails: db.select(mailColumns).from(mailOutbox).where(eq(mailOutbox.userId, userId)),
    exemplos: rowsOf(examples, examples.createdBy),
    chavesDeIdempotencia: rowsOf(idempotencyKeys, idempotencyKeys.userId),
    ...pushSections(db, userId),
    fotos: mediaOf(db, userId),
  });
  return {
    geradoEm: new Date().toISOString(),
    conta: { ...withoutSecrets(account, ['passwordHash']), senha: '(guardada só como hash)' },
    ...sections,
  };
}

/** Awaits every promise of an object at once: the same keys, with their values. */
async function awaitAll<T extends Record<string, Promise<unknown>>>(
  promises: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const keys = Object.keys(promises);
  const values = await Promise.all(Object.values(promises));
  return Object.fromEntries(keys.map((key, i) => [key, values[i]])) as {
    [K in keyof T]: Awaited<T[K]>;
  };
}
