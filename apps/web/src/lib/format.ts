/** Dates as the UI shows and edits them (Brazilian Portuguese, the browser's time zone). */

const dateTime = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' });

export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO timestamp → the value of an `<input type="datetime-local">` (local time, minutes). */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value → an ISO timestamp in UTC; '' → undefined (the field was left empty). */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export const MATCH_STATUS_LABELS: Record<string, string> = {
  EM_BREVE: 'Em breve',
  EM_ANDAMENTO: 'Em andamento',
  FINALIZADA: 'Finalizada',
  CANCELADA: 'Cancelada',
};

export const USER_STATUS_LABELS: Record<string, string> = {
  ATIVO: 'Ativo',
  INATIVO: 'Bloqueado',
  PENDENTE: 'Pendente',
};

export const PERFIL_LABELS: Record<string, string> = {
  ALUNO: 'Aluno',
  PROFESSOR: 'Professor',
  ADMIN: 'Administrador',
};

/** "1 curtida", "2 curtidas". */
export const plural = (count: number, one: string, many: string) =>
  `${count} ${count === 1 ? one : many}`;
