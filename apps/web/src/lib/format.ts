/** Dates as the UI shows and edits them (Brazilian Portuguese, the browser's time zone). */

const dateTime = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' });

export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

/** The campus's zone: event and match times are given in it, and in the reader's when it differs. */
export const CAMPUS_ZONE = 'America/Sao_Paulo';

/** The browser's time zone (an IANA name). */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** "quarta-feira, 25 de novembro de 2026 às 19:30" in `zone`: a date in full (a time's title). */
export function fullDateTime(iso: string, zone = browserZone()): string {
  return new Intl.DateTimeFormat('pt-BR', {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: zone,
  }).format(new Date(iso));
}

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];
const relative = new Intl.RelativeTimeFormat('pt-BR', { numeric: 'auto' });

/** "agora", "há 5 minutos", "ontem", "em 3 dias": how far `iso` is from `now`, in its largest unit. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return 'agora';
}

/** ["qua., 25/11/2026", "19:30"] in `zone`. */
function dayAndTime(date: Date, zone: string): [string, string] {
  const options = { timeZone: zone } as const;
  const day = new Intl.DateTimeFormat('pt-BR', {
    ...options,
    weekday: 'short',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  });
  const time = new Intl.DateTimeFormat('pt-BR', { ...options, hour: '2-digit', minute: '2-digit' });
  return [day.format(date), time.format(date)];
}

const zoneName = (date: Date, zone: string) =>
  new Intl.DateTimeFormat('pt-BR', { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(date)
    .find((part) => part.type === 'timeZoneName')?.value ?? zone;

/**
 * An event's or a match's date with its weekday and zone: "qua., 25/11/2026, 19:30 (horário de
 * Brasília)"; when the reader's zone shows another time, that too ("… · 22:30 no seu fuso (UTC)").
 */
export function eventDateTime(iso: string, zone = browserZone()): string {
  const date = new Date(iso);
  const [campusDay, campusTime] = dayAndTime(date, CAMPUS_ZONE);
  const [localDay, localTime] = dayAndTime(date, zone);
  const campus = `${campusDay}, ${campusTime} (horário de Brasília)`;
  if (localDay === campusDay && localTime === campusTime) return campus;
  const local = localDay === campusDay ? localTime : `${localDay}, ${localTime}`;
  return `${campus} · ${local} no seu fuso (${zoneName(date, zone)})`;
}

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

/** A team's own name; '' while it keeps the API's default (TIME_A, TIME_B), which is no name. */
export const ownTeamName = (letter: 'A' | 'B', name: string | null | undefined) =>
  name?.trim() && name !== `TIME_${letter}` ? name : '';

/** "A: Azul" after "time"; just "A" for a team without a name of its own (never "A: TIME_A"). */
export const teamRef = (letter: 'A' | 'B', name: string | null | undefined) => {
  const own = ownTeamName(letter, name);
  return own ? `${letter}: ${own}` : letter;
};

/** "Azul", or "Time A" for a team without a name of its own. */
export const teamTitle = (letter: 'A' | 'B', name: string | null | undefined) =>
  ownTeamName(letter, name) || `Time ${letter}`;

/** "1 curtida", "2 curtidas". */
export const plural = (count: number, one: string, many: string) =>
  `${count} ${count === 1 ? one : many}`;
