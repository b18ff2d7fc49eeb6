import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { publishMany } from '../events/bus';

/** REMINDER_LEAD's default: two hours before the match or event. */
export const DEFAULT_REMINDER_LEAD_S = 2 * 3600;

/** Where reminders show the time: the campus's zone (Brasília). */
const DISPLAY_ZONE = 'America/Sao_Paulo';

/** Limits a sweep to one match or one event post (a player who just joined, a date just moved). */
export interface ReminderScope {
  matchId?: string;
  postId?: string;
}

/**
 * Writes every reminder that is due and not yet written: `MATCH_REMINDER` to each player of an
 * EM_BREVE match starting within `leadSeconds`, `EVENT_REMINDER` to each attendee of an EVENT
 * starting within it. One statement per kind; idempotent, so any number of processes may run it
 * at once and a sweep after downtime sends what fell due meanwhile, once:
 * - exactly once per person: the dedupe key (type, thing, its date) is unique per user;
 * - a moved match or event has a new key, so it is reminded for its new date;
 * - a cancelled match, a past date, a player who left: not selected.
 * Returns how many reminders were written.
 */
export async function sendDueReminders(
  ex: Executor,
  leadSeconds: number,
  scope: ReminderScope = {},
): Promise<number> {
  const window = (column: SQL) =>
    sql`${column} > now() and ${column} <= now() + make_interval(secs => ${leadSeconds})`;
  const when = (column: SQL) =>
    sql`to_char(${column} at time zone ${DISPLAY_ZONE}, 'DD/MM "às" HH24:MI')`;
  const quoted = (title: SQL) =>
    sql`'“' || case when length(${title}) > 80 then left(${title}, 79) || '…' else ${title} end || '”'`;

  const statements: SQL[] = [];
  if (!scope.postId) {
    statements.push(sql`
      insert into notifications (user_id, type, message, data, dedupe_key)
      select mp.user_id, 'MATCH_REMINDER',
             'Lembrete: a partida ' || ${quoted(sql`m.title`)} || ' começa em ' || ${when(sql`m.match_date`)},
             jsonb_build_object('matchId', m.id),
             'MATCH_REMINDER:' || m.id || ':' || extract(epoch from m.match_date)::bigint
      from matches m join match_players mp on mp.match_id = m.id
      where m.status = 'EM_BREVE' and ${window(sql`m.match_date`)}
        ${scope.matchId ? sql`and m.id = ${scope.matchId}` : sql``}
      on conflict do nothing
      returning user_id as "userId", seq`);
  }
  if (!scope.matchId) {
    statements.push(sql`
      insert into notifications (user_id, type, message, data, dedupe_key)
      select pa.user_id, 'EVENT_REMINDER',
             'Lembrete: o evento ' || ${quoted(sql`p.title`)} || ' começa em ' || ${when(sql`p.event_date`)},
             jsonb_build_object('postId', p.id),
             'EVENT_REMINDER:' || p.id || ':' || extract(epoch from p.event_date)::bigint
      from posts p join post_attendances pa on pa.post_id = p.id
      where p.type = 'EVENT' and ${window(sql`p.event_date`)}
        ${scope.postId ? sql`and p.id = ${scope.postId}` : sql``}
      on conflict do nothing
      returning user_id as "userId", seq`);
  }
  let written = 0;
  for (const statement of statements) {
    const result = await ex.execute(statement);
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
      userId: string;
      seq: number | string;
    }>;
    written += rows.length;
    await publishMany(
      ex,
      'notification',
      rows.map((row) => ({ key: row.userId, seq: Number(row.seq) })),
    );
  }
  return written;
}
