import { index, pgTable, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { users } from '../users/table';
import { LIMITS } from '../common/limits';

export const examples = pgTable(
  'examples',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nome: varchar('nome', { length: LIMITS.example.nome.max }).notNull(),
    descricao: varchar('descricao', { length: LIMITS.example.descricao.max }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('examples_created_at_id_idx').on(t.createdAt.desc(), t.id.desc()),
    // The foreign key to users: a deleted account's examples are found by index.
    index('examples_created_by_idx').on(t.createdBy),
  ],
);
