/** A user's profiles and statuses: plain values, importable by the browser (no drizzle), used by the table and the schemas. */
export const PERFIS = ['ALUNO', 'PROFESSOR', 'ADMIN'] as const;
export const USER_STATUSES = ['PENDENTE', 'ATIVO', 'INATIVO'] as const;
export type Perfil = (typeof PERFIS)[number];
export type UserStatus = (typeof USER_STATUSES)[number];
