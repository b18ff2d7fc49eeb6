import { eq, getTableColumns, or } from 'drizzle-orm';
import { refreshTokens } from '../auth/table';
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
import { accountStatusChanges, users } from '../users/table';
import type { PersonalData } from './schemas';
import { passwordResetTokens } from './table';

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
} as const satisfies Record<string, Exclude<keyof PersonalData, 'geradoEm'>>;

/** Tables that hold nothing about a person, and why. */
export const IMPERSONAL_TABLES = {
  groups: 'a group is a community resource; its members are in group_members',
  row_counts: 'totals per table',
  rate_limit_hits: 'counters per client address and window, gone within the window',
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
  // One query per section, all at once; the section names are the export's.
  const sections = await awaitAll({
    sessoes: db.select(sessionColumns).from(refreshTokens).where(eq(refreshTokens.userId, userId)),
    redefinicoesDeSenha: db
      .select(resetColumns)
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, userId)),
    historicoDeStatus: db
      .select()
      .from(accountStatusChanges)
      .where(
        or(eq(accountStatusChanges.userId, userId), eq(accountStatusChanges.changedBy, userId)),
      ),
    posts: db.select().from(posts).where(eq(posts.authorId, userId)),
    comentarios: db.select().from(postComments).where(eq(postComments.authorId, userId)),
    curtidas: db.select().from(postLikes).where(eq(postLikes.userId, userId)),
    presencas: db.select().from(postAttendances).where(eq(postAttendances.userId, userId)),
    denuncias: db.select().from(postReports).where(eq(postReports.userId, userId)),
    denunciasDeComentarios: db
      .select()
      .from(commentReports)
      .where(eq(commentReports.userId, userId)),
    decisoesDeModeracao: db
      .select()
      .from(moderationDecisions)
      .where(eq(moderationDecisions.adminId, userId)),
    partidasCriadas: db.select().from(matches).where(eq(matches.authorId, userId)),
    partidasComoJogador: db.select().from(matchPlayers).where(eq(matchPlayers.userId, userId)),
    listasDeEspera: db.select().from(matchWaitlist).where(eq(matchWaitlist.userId, userId)),
    grupos: db.select().from(groupMembers).where(eq(groupMembers.userId, userId)),
    pedidosDeEntrada: db
      .select()
      .from(groupJoinRequests)
      .where(or(eq(groupJoinRequests.userId, userId), eq(groupJoinRequests.decidedBy, userId))),
    gruposSeguidos: db.select().from(groupFollows).where(eq(groupFollows.userId, userId)),
    notificacoes: db.select().from(notifications).where(eq(notifications.userId, userId)),
    emails: db.select(mailColumns).from(mailOutbox).where(eq(mailOutbox.userId, userId)),
    exemplos: db.select().from(examples).where(eq(examples.createdBy, userId)),
    chavesDeIdempotencia: db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.userId, userId)),
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
