/** A match's statuses and teams: plain values, importable by the browser (no drizzle), used by the table and the schemas. */
export const MATCH_STATUSES = ['EM_BREVE', 'EM_ANDAMENTO', 'FINALIZADA', 'CANCELADA'] as const;
export const TEAMS = ['A', 'B'] as const;
