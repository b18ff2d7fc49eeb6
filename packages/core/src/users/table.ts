import { date, index, pgEnum, pgTable, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { LIMITS } from '../common/limits';
import { PERFIS, USER_STATUSES } from '../common/user-enums';

export const perfilEnum = pgEnum('perfil', PERFIS);
export const userStatusEnum = pgEnum('user_status', USER_STATUSES);

/** Every account: students, staff and administrators. E-mail is stored lower-case. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nome: varchar('nome', { length: LIMITS.user.nome.max }).notNull(),
    nickname: varchar('nickname', { length: LIMITS.user.nickname.max })
      .notNull()
      .unique('users_nickname_unique'),
    email: varchar('email', { length: LIMITS.user.email.max })
      .notNull()
      .unique('users_email_unique'),
    passwordHash: text('password_hash').notNull(),
    perfil: perfilEnum('perfil').notNull().default('ALUNO'),
    status: userStatusEnum('status').notNull().default('ATIVO'),
    // Registration details (null for accounts not created through registration, e.g. the admin).
    instituicao: varchar('instituicao', { length: LIMITS.user.instituicao.max }),
    curso: varchar('curso', { length: LIMITS.user.curso.max }),
    periodo: varchar('periodo', { length: LIMITS.user.periodo.max }),
    dataNascimento: date('data_nascimento', { mode: 'string' }),
    nacionalidade: varchar('nacionalidade', { length: LIMITS.user.nacionalidade.max }),
    estado: varchar('estado', { length: LIMITS.user.estado.max }),
    cidade: varchar('cidade', { length: LIMITS.user.cidade.max }),
    escolaridade: varchar('escolaridade', { length: LIMITS.user.escolaridade.max }),
    // Teacher sign-up details (docs/contract/accounts.md, Teacher registration): department and
    // SIAPE registration number.
    departamento: varchar('departamento', { length: LIMITS.user.departamento.max }),
    siape: varchar('siape', { length: 7 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Every session ended at this time (blocking, password change, logout everywhere): access
     * tokens issued in an earlier second are refused. Changes to it, `status`, `perfil`,
     * `nickname` and deletions NOTIFY every process (migration 0012: the auth caches).
     */
    sessionsRevokedAt: timestamp('sessions_revoked_at', { withTimezone: true }),
  },
  (t) => [index('users_created_at_id_idx').on(t.createdAt.desc(), t.id.desc())],
);

/** A row's user (`user_id`): the row goes when the account goes. */
export const userRef = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

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
  (t) => [
    index('account_status_changes_user_idx').on(t.userId, t.changedAt),
    // The foreign key to users: a deleted admin's changes are found by index.
    index('account_status_changes_changed_by_idx').on(t.changedBy),
  ],
);

export type UserRow = typeof users.$inferSelect;
