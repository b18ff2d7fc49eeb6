import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Actor } from '../common/actor';
import { metadados, pageOffset } from '../common/pagination';
import type { Database, Transaction } from '../db/client';
import { qualified } from '../db/qualified';
import { notFound } from '../errors';
import { publish } from '../events/bus';
import { commentReports, postComments, postReports, posts } from '../feed/table';
import { hide, show, type Target } from '../feed/hiding';
import {
  MOTIVOS_MAX,
  type DecideDenunciaInput,
  type DecideDenunciaResponse,
  type DenunciaList,
  type ListDenunciasInput,
} from './schemas';
import { moderationDecisions } from './table';

/*
 * The site ADMIN's queue and decisions (docs/contract/feed.md, Moderation). The queue groups the
 * reports of each post and comment: PENDENTE lists the content with open reports (counting those),
 * RESOLVIDA the content whose reports were all decided (counting all). Most-reported first, then
 * the latest report. A decision locks the post row first (like every report), closes the open
 * reports, changes visibility, and is recorded in moderation_decisions.
 */

/** One queue source: the reports of posts or of comments, grouped by their target. */
function cases(
  tipo: Target['tipo'],
  reports: typeof postReports | typeof commentReports,
  targetId: typeof postReports.postId | typeof commentReports.commentId,
  content: typeof posts | typeof postComments,
) {
  const open = sql`count(*) filter (where ${qualified(reports.resolvedAt)} is null)`;
  return sql`select ${tipo}::text as tipo, ${qualified(targetId)} as id,
      ${open}::int as abertas, count(*)::int as todas,
      max(${qualified(reports.createdAt)}) as ultima,
      (array_agg(${qualified(reports.reason)} order by ${qualified(reports.createdAt)} desc))[1:${sql.raw(String(MOTIVOS_MAX))}] as motivos,
      (select ${qualified(content.hiddenAt)} is not null from ${content} where ${qualified(content.id)} = ${qualified(targetId)}) as oculto
    from ${reports} group by ${qualified(targetId)}`;
}

const queue = sql`(${cases('POST', postReports, postReports.postId, posts)}
  union all ${cases('COMENTARIO', commentReports, commentReports.commentId, postComments)}) q`;

interface QueueRow extends Record<string, unknown> {
  tipo: Target['tipo'];
  id: string;
  n: number;
  ultima: Date | string;
  motivos: string[];
  oculto: boolean;
  total: number;
}

/** Rows of `db.execute`, whichever driver (PGlite answers `{rows}`, postgres.js an array). */
const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);

/** The post whose row the decision locks: the post itself, or the comment's post. */
async function lockTarget(tx: Transaction, target: Target): Promise<string> {
  const postId =
    target.tipo === 'POST'
      ? target.id
      : (
          await tx
            .select({ postId: postComments.postId })
            .from(postComments)
            .where(eq(postComments.id, target.id))
        )[0]?.postId;
  const [locked] = postId
    ? await tx.select({ id: posts.id }).from(posts).where(eq(posts.id, postId)).for('no key update')
    : [];
  if (!locked) throw notFound('Conteúdo não encontrado');
  if (target.tipo === 'COMENTARIO') {
    // Deleted while waiting for the lock?
    const [still] = await tx
      .select({ id: postComments.id })
      .from(postComments)
      .where(eq(postComments.id, target.id));
    if (!still) throw notFound('Conteúdo não encontrado');
  }
  return locked.id;
}

async function closeReports(tx: Transaction, target: Target): Promise<number> {
  const closed =
    target.tipo === 'POST'
      ? await tx
          .update(postReports)
          .set({ resolvedAt: sql`now()` })
          .where(and(eq(postReports.postId, target.id), isNull(postReports.resolvedAt)))
          .returning({ id: postReports.id })
      : await tx
          .update(commentReports)
          .set({ resolvedAt: sql`now()` })
          .where(and(eq(commentReports.commentId, target.id), isNull(commentReports.resolvedAt)))
          .returning({ id: commentReports.id });
  return closed.length;
}

async function isHidden(tx: Transaction, target: Target): Promise<boolean> {
  const table = target.tipo === 'POST' ? posts : postComments;
  const [row] = await tx
    .select({ hiddenAt: table.hiddenAt })
    .from(table)
    .where(eq(table.id, target.id));
  return Boolean(row?.hiddenAt);
}

export function createModerationService(db: Database) {
  return {
    async queue(query: ListDenunciasInput): Promise<DenunciaList> {
      const status = query.status === 'PENDENTE' ? sql`q.abertas > 0` : sql`q.abertas = 0`;
      const count = query.status === 'PENDENTE' ? sql`q.abertas` : sql`q.todas`;
      const result = await db.execute(sql`
        select q.tipo, q.id, ${count} as n, q.ultima, q.motivos, coalesce(q.oculto, false) as oculto,
               count(*) over ()::int as total
        from ${queue} where ${status}
        order by ${count} desc, q.ultima desc, q.id
        limit ${query.limit} offset ${pageOffset(query)}`);
      const rows = rowsOf<QueueRow>(result);
      // Past the last page no row carries the total: count it apart.
      const total =
        rows[0]?.total ??
        (query.page > 1
          ? (rowsOf<{ n: number }>(
              await db.execute(sql`select count(*)::int as n from ${queue} where ${status}`),
            )[0]?.n ?? 0)
          : 0);
      return {
        dados: rows.map((r) => ({
          tipo: r.tipo,
          id: r.id,
          denuncias: Number(r.n),
          oculto: r.oculto,
          ultimaEm: new Date(r.ultima).toISOString(),
          motivos: r.motivos,
        })),
        metadados: metadados(query, Number(total)),
      };
    },

    async decide(
      { tipo, id, acao }: DecideDenunciaInput,
      actor: Actor,
    ): Promise<DecideDenunciaResponse['dados']> {
      const target: Target = { tipo, id };
      return db.transaction(async (tx) => {
        const postId = await lockTarget(tx, target);
        const closed = await closeReports(tx, target);
        if (acao === 'OCULTAR') await hide(tx, target, false);
        else await show(tx, target, acao === 'RESTAURAR');
        const [decision] = await tx
          .insert(moderationDecisions)
          .values({
            targetType: tipo,
            targetId: id,
            action: acao,
            adminId: actor.id,
            reportsClosed: closed,
          })
          .returning();
        await publish(tx, 'post', { key: postId });
        return {
          tipo,
          id,
          oculto: await isHidden(tx, target),
          decisao: {
            id: decision!.id,
            acao,
            adminId: actor.id,
            em: decision!.createdAt.toISOString(),
            denunciasEncerradas: closed,
          },
        };
      });
    },
  };
}
