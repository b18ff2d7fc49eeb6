import type { Example } from './schemas';
import type { examples } from './table';

export type ExampleRow = typeof examples.$inferSelect;

/** Row → response: timestamps as ISO text, a null description left out (`createdBy` is not shown). */
export const toExample = (row: ExampleRow): Example => ({
  id: row.id,
  nome: row.nome,
  ...(row.descricao !== null ? { descricao: row.descricao } : {}),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});
