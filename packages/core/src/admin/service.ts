import { and, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Usuario } from '../auth/schemas';
import { revokeUserSessions } from '../auth/sessions';
import type { Actor } from '../common/actor';
import { isUuid } from '../common/ids';
import { newestFirst } from '../common/order';
import { metadados, pageOffset } from '../common/pagination';
import type { Database } from '../db/client';
import { rowCounts } from '../db/row-counts';
import { forbidden, notFound } from '../errors';
import {
  prepareUserById,
  usuarioColumns,
  userSummaryColumns as summaryColumns,
} from '../users/records';
import type { UserStatus } from '../common/user-enums';
import { accountStatusChanges, users } from '../users/table';
import type { AdminUserSummary, ListUsersInput } from './schemas';
import { teacherApprovedMail } from '../mail/messages';
import { enqueueMail, type MailService } from '../mail/outbox';

/** Served by users_created_at_id_idx (see common/order.ts). */
const byNewest = newestFirst(users.createdAt, users.id);

/** `value` as a literal inside a LIKE pattern: `\`, `%` and `_` lose their meaning. */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, '\\$&');

function filtersOf({ status, perfil, busca }: ListUsersInput): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (status) conditions.push(eq(users.status, status));
  if (perfil) conditions.push(eq(users.perfil, perfil));
  if (busca) {
    const pattern = `%${likeLiteral(busca)}%`;
    conditions.push(
      or(ilike(users.nome, pattern), ilike(users.nickname, pattern), ilike(users.email, pattern)),
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

const userNotFound = () => notFound('Usuário não encontrado');

/**
 * User administration (docs/contract/accounts.md, Administration). Callers are checked to be ADMIN
 * by the API layer.
 */
export function createAdminService(db: Database, mail?: { service: MailService; appUrl: string }) {
  const byId = prepareUserById(db, usuarioColumns, 'admin_user_by_id');
  const unfilteredPage = db
    .select(summaryColumns)
    .from(users)
    .orderBy(byNewest)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('admin_users_page');
  const unfilteredTotal = db
    .select({ n: rowCounts.rowCount })
    .from(rowCounts)
    .where(eq(rowCounts.tableName, 'users'))
    .prepare('admin_users_total');

  async function page(query: ListUsersInput) {
    const where = filtersOf(query);
    if (!where) {
      const [rows, [total]] = await Promise.all([
        unfilteredPage.execute({ limit: query.limit, offset: pageOffset(query) }),
        unfilteredTotal.execute(),
      ]);
      return { rows, total: total?.n ?? 0 };
    }
    const [rows, [total]] = await Promise.all([
      db
        .select(summaryColumns)
        .from(users)
        .where(where)
        .orderBy(byNewest)
        .limit(query.limit)
        .offset(pageOffset(query)),
      db.select({ n: count() }).from(users).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  return {
    /** Newest first. Without filters the total comes from `row_counts`, not a COUNT(*) scan. */
    async list(query: ListUsersInput) {
      const { rows, total } = await page(query);
      return { dados: rows, metadados: metadados(query, total) };
    },

    /** Unknown or malformed ids are both "not found" (docs/contract/errors.md, Ids in paths). */
    async get(id: string): Promise<Usuario> {
      const [user] = isUuid(id) ? await byId.execute({ id }) : [];
      if (!user) throw userNotFound();
      return user;
    },

    /**
     * Approval, blocking, reactivation. The user row is locked for the whole change, so
     * concurrent changes of one user apply one after another and the history stays a chain
     * (each record's `from` is the previous record's `to`). Setting the current status again is
     * answered like a change but records nothing. Leaving ATIVO ends every session at once:
     * refresh tokens are revoked here, and access tokens are refused by the authenticator, which
     * reads the status on each request.
     */
    async setStatus(actor: Actor, id: string, status: UserStatus): Promise<AdminUserSummary> {
      if (!isUuid(id)) throw userNotFound();
      if (id === actor.id) {
        throw forbidden(
          'Um administrador não pode alterar o próprio status',
          'CANNOT_CHANGE_OWN_STATUS',
        );
      }
      let approved = false;
      const changed = await db.transaction(async (tx) => {
        const [user] = await tx
          .select(summaryColumns)
          .from(users)
          .where(eq(users.id, id))
          .for('update');
        if (!user) throw userNotFound();
        if (user.perfil === 'ADMIN') {
          throw forbidden(
            'Não é permitido alterar o status de outro administrador',
            'CANNOT_CHANGE_ADMIN_STATUS',
          );
        }
        if (user.status === status) return user;
        await tx.update(users).set({ status, updatedAt: new Date() }).where(eq(users.id, id));
        await tx.insert(accountStatusChanges).values({
          userId: id,
          changedBy: actor.id,
          fromStatus: user.status,
          toStatus: status,
          // The time the lock was held, not the transaction start: history order = lock order.
          changedAt: sql`clock_timestamp()`,
        });
        if (status !== 'ATIVO') await revokeUserSessions(tx, id);
        // A teacher's sign-up approved: told by e-mail (sent after the commit, from the outbox).
        if (
          mail &&
          user.perfil === 'PROFESSOR' &&
          user.status === 'PENDENTE' &&
          status === 'ATIVO'
        ) {
          await enqueueMail(
            tx,
            teacherApprovedMail(user, `${mail.appUrl.replace(/\/+$/, '')}/entrar`),
          );
          approved = true;
        }
        return { ...user, status };
      });
      if (approved) mail?.service.wakeUp();
      return changed;
    },
  };
}
