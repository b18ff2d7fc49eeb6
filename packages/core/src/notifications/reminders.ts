import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { publishMany } from '../events/bus';
import { enqueuePush } from './push/outbox';

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

  /** One kind's statement: `t` is the match or post, `a` a player or attendee. Fixed text only. */
  const remind = (kind: {
    type: 'MATCH_REMINDER' | 'EVENT_REMINDER';
    what: string;
    dataKey: 'matchId' | 'postId';
    dateColumn: string;
    from: string;
    where: string;
    only?: string;
  }) => {
    const date = sql.raw(`t.${kind.dateColumn}`);
    return sql`
      insert into notifications (user_id, type, message, data, dedupe_key)
      select a.user_id, ${sql.raw(`'${kind.type}'`)},
             ${sql.raw(`'Lembrete: ${kind.what} '`)} || ${quoted(sql`t.title`)} || ' começa em ' || ${when(date)},
             jsonb_build_object(${sql.raw(`'${kind.dataKey}'`)}, t.id),
             ${sql.raw(`'${kind.type}:'`)} || t.id || ':' || extract(epoch from ${date})::bigint
      from ${sql.raw(kind.from)}
      where ${sql.raw(kind.where)} and ${window(date)}
        ${kind.only ? sql`and t.id = ${kind.only}` : sql``}
      on conflict do nothing
      returning id, user_id as "userId", seq`;
  };

  const statements: SQL[] = [];
  if (!scope.postId)
    statements.push(
      remind({
        type: 'MATCH_REMINDER',
        what: 'a partida',
        dataKey: 'matchId',
        dateColumn: 'match_date',
        from: 'matches t join match_players a on a.match_id = t.id',
        where: "t.status = 'EM_BREVE'",
        only: scope.matchId,
      }),
    );
  if (!scope.matchId)
    statements.push(
      remind({
        type: 'EVENT_REMINDER',
        what: 'o evento',
        dataKey: 'postId',
        dateColumn: 'event_date',
        from: 'posts t join post_attendances a on a.post_id = t.id',
        where: "t.type = 'EVENT'",
        only: scope.postId,
      }),
    );
  let written = 0;
  for (const statement of statements) {
    const result = await ex.execute(statement);
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
      id: string;
      userId: string;
      seq: number | string;
    }>;
    written += rows.length;
    await enqueuePush(
      ex,
      rows.map((row) => row.id),
    );
    await publishMany(
      ex,
      'notification',
      rows.map((row) => ({ key: row.userId, seq: Number(row.seq) })),
    );
  }
  return written;
}
