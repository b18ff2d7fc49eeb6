/** A match's statuses, teams and sports: plain values, importable by the browser (no drizzle), used by the table and the schemas. */
export const MATCH_STATUSES = ['EM_BREVE', 'EM_ANDAMENTO', 'FINALIZADA', 'CANCELADA'] as const;
export const TEAMS = ['A', 'B'] as const;
/**
 * The sports a match can be (docs/contract/matches.md, Sport, group and scores), published at `GET
 * /match/sports`.
 */
export const SPORTS = [
  'FUTEBOL',
  'FUTSAL',
  'SOCIETY',
  'VOLEI',
  'VOLEI_DE_PRAIA',
  'BASQUETE',
  'HANDEBOL',
  'TENIS_DE_MESA',
  'OUTRO',
] as const;
