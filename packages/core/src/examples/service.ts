import { eq, sql } from 'drizzle-orm';
import type { Actor } from '../common/actor';
import { newestFirst } from '../common/order';
import type { Database } from '../db/client';
import { rowCounts } from '../db/row-counts';
import { notFound } from '../errors';
import { isUuid } from '../common/ids';
import { metadados, pageOffset, type PageQuery } from '../common/pagination';
import { toExample } from './records';
import type { CreateExampleInput, Example } from './schemas';
import { examples } from './table';

/**
 * The smallest complete domain, and the one to copy (docs/adding-a-domain.md): `table.ts`,
 * `schemas.ts`, `records.ts` (row → response), this factory taking the database, registered in
 * `services.ts`, its router in `packages/api/src/examples/router.ts`.
 */
export function createExampleService(db: Database) {
  const byId = db
    .select()
    .from(examples)
    .where(eq(examples.id, sql.placeholder('id')))
    .prepare('examples_by_id');
  const page = db
    .select()
    .from(examples)
    .orderBy(newestFirst(examples.createdAt, examples.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('examples_page');
  const total = db
    .select({ n: rowCounts.rowCount })
    .from(rowCounts)
    .where(eq(rowCounts.tableName, 'examples'))
    .prepare('examples_total');

  return {
    async create(input: CreateExampleInput, actor: Actor): Promise<Example> {
      const [row] = await db
        .insert(examples)
        .values({ nome: input.nome, descricao: input.descricao ?? null, createdBy: actor.id })
        .returning();
      return toExample(row!);
    },

    async list(query: PageQuery) {
      const [rows, [count]] = await Promise.all([
        page.execute({ limit: query.limit, offset: pageOffset(query) }),
        total.execute(),
      ]);
      return { dados: rows.map(toExample), metadados: metadados(query, count?.n ?? 0) };
    },

    /** Unknown or malformed ids are both "not found" (decisions §10). */
    async get(id: string): Promise<Example> {
      const [row] = isUuid(id) ? await byId.execute({ id }) : [];
      if (!row) throw notFound('Exemplo não encontrado');
      return toExample(row);
    },
  };
}
