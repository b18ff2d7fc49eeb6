import { date, index, pgEnum, pgTable, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';

export const PERFIS = ['ALUNO', 'PROFESSOR', 'ADMIN'] as const;
export const USER_STATUSES = ['PENDENTE', 'ATIVO', 'INATIVO'] as const;
export type Perfil = (typeof PERFIS)[number];
export type UserStatus = (typeof USER_STATUSES)[number];

export const perfilEnum = pgEnum('perfil', PERFIS);
export const userStatusEnum = pgEnum('user_status', USER_STATUSES);

/** Every account: students, staff and administrators. E-mail is stored lower-case. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nome: varchar('nome', { length: 120 }).notNull(),
    nickname: varchar('nickname', { length: 30 }).notNull().unique('users_nickname_unique'),
    email: varchar('email', { length: 254 }).notNull().unique('users_email_unique'),
    passwordHash: text('password_hash').notNull(),
    perfil: perfilEnum('perfil').notNull().default('ALUNO'),
    status: userStatusEnum('status').notNull().default('ATIVO'),
    // Registration details (null for accounts not created through registration, e.g. the admin).
    instituicao: varchar('instituicao', { length: 160 }),
    curso: varchar('curso', { length: 120 }),
    periodo: varchar('periodo', { length: 40 }),
    dataNascimento: date('data_nascimento', { mode: 'string' }),
    nacionalidade: varchar('nacionalidade', { length: 80 }),
    estado: varchar('estado', { length: 2 }),
    cidade: varchar('cidade', { length: 100 }),
    escolaridade: varchar('escolaridade', { length: 40 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('users_created_at_id_idx').on(t.createdAt.desc(), t.id.desc())],
);

/** Who changed whose account status, when, from what to what. */
export const accountStatusChanges = pgTable(
  'account_status_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    changedBy: uuid('changed_by').references(() => users.id, { onDelete: 'set null' }),
    fromStatus: userStatusEnum('from_status').notNull(),
    toStatus: userStatusEnum('to_status').notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_status_changes_user_idx').on(t.userId, t.changedAt)],
);

export type UserRow = typeof users.$inferSelect;
