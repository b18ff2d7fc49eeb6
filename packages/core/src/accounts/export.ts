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
  const [
    sessoes,
    redefinicoesDeSenha,
    historicoDeStatus,
    ownPosts,
    comentarios,
    curtidas,
    presencas,
    denuncias,
    denunciasDeComentarios,
    decisoesDeModeracao,
    partidasCriadas,
    partidasComoJogador,
    listasDeEspera,
    grupos,
    pedidosDeEntrada,
    gruposSeguidos,
    notificacoes,
    emails,
    exemplos,
    chavesDeIdempotencia,
  ] = await Promise.all([
    db.select(sessionColumns).from(refreshTokens).where(eq(refreshTokens.userId, userId)),
    db.select(resetColumns).from(passwordResetTokens).where(eq(passwordResetTokens.userId, userId)),
    db
      .select()
      .from(accountStatusChanges)
      .where(
        or(eq(accountStatusChanges.userId, userId), eq(accountStatusChanges.changedBy, userId)),
      ),
    db.select().from(posts).where(eq(posts.authorId, userId)),
    db.select().from(postComments).where(eq(postComments.authorId, userId)),
    db.select().from(postLikes).where(eq(postLikes.userId, userId)),
    db.select().from(postAttendances).where(eq(postAttendances.userId, userId)),
    db.select().from(postReports).where(eq(postReports.userId, userId)),
    db.select().from(commentReports).where(eq(commentReports.userId, userId)),
    db.select().from(moderationDecisions).where(eq(moderationDecisions.adminId, userId)),
    db.select().from(matches).where(eq(matches.authorId, userId)),
    db.select().from(matchPlayers).where(eq(matchPlayers.userId, userId)),
    db.select().from(matchWaitlist).where(eq(matchWaitlist.userId, userId)),
    db.select().from(groupMembers).where(eq(groupMembers.userId, userId)),
    db
      .select()
      .from(groupJoinRequests)
      .where(or(eq(groupJoinRequests.userId, userId), eq(groupJoinRequests.decidedBy, userId))),
    db.select().from(groupFollows).where(eq(groupFollows.userId, userId)),
    db.select().from(notifications).where(eq(notifications.userId, userId)),
    db.select(mailColumns).from(mailOutbox).where(eq(mailOutbox.userId, userId)),
    db.select().from(examples).where(eq(examples.createdBy, userId)),
    db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, userId)),
  ]);
  return {
    geradoEm: new Date().toISOString(),
    conta: { ...withoutSecrets(account, ['passwordHash']), senha: '(guardada só como hash)' },
    sessoes,
    redefinicoesDeSenha,
    historicoDeStatus,
    posts: ownPosts,
    comentarios,
    curtidas,
    presencas,
    denuncias,
    denunciasDeComentarios,
    decisoesDeModeracao,
    partidasCriadas,
    partidasComoJogador,
    listasDeEspera,
    grupos,
    pedidosDeEntrada,
    gruposSeguidos,
    notificacoes,
    emails,
    exemplos,
    chavesDeIdempotencia,
  };
}
