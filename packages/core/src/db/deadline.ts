import { AsyncLocalStorage } from 'node:async_hooks';
import type postgres from 'postgres';
import type { PoolUsage } from './pool-usage';
import { isDatabaseUnavailable } from './unavailable';

/**
 * A request's deadline, carried to its database work (docs/operations.md, "A request past its
 * deadline"): when it passes, the work is called back instead of being left to run later. A
 * statement still queued for a connection is dropped, one running is cancelled by the server
 * (which rolls back), and any statement the work sends afterwards is refused before it leaves.
 * The caller then waits a moment for the work to settle, so its answer says what happened.
 */
interface Deadline {
  signal: AbortSignal;
  /** Statements sent and transactions entered that have not settled yet. */
  inFlight: number;
  /**
   * A statement of its own that may write (not a select), or a transaction, completed: part of
   * the work may be stored, so a later failure cannot say "not done".
   */
  committed: boolean;
}

const current = new AsyncLocalStorage<Deadline>();

/**
 * Whether a Node of `version`, started with `flags` (its own and NODE_OPTIONS'), carries a
 * request's context cheaply: from Node 24 (and Node 22 with `--experimental-async-context-frame`)
 * AsyncLocalStorage rides on V8's own continuation data. Before that it tracks every promise with
 * async hooks, which `pnpm bench` measured at about a fifth of a request's CPU on every route
 * (REST 0.81 → 0.65 of the hand-written handler). There a deadline answers without calling the
 * work back (a write then answers OUTCOME_UNKNOWN).
 */
export function asyncContextIsCheap(version: string, flags: readonly string[]): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (flags.includes('--no-async-context-frame')) return false;
  return (
    major >= 24 ||
    (major === 22 && minor >= 7 && flags.includes('--experimental-async-context-frame'))
  );
}

/** The error of a statement refused because its request's deadline had passed: never sent. */
const refused = () =>
  Object.assign(new Error('the request outlived its deadline'), { code: 'DATABASE_DEADLINE' });

/**
 * Runs `work` with a deadline of `ms`. Past it, with `callsBackWork` (see asyncContextIsCheap),
 * its database work is called back and `work` gets `graceMs` more to settle: its result or error
 * is the answer (a result that arrived late is still the truth). Unsettled by then, it rejects
 * with `DATABASE_DEADLINE_PASSED`, and `maybeApplied` says whether a statement or a transaction
 * was still on its way (the connection went silent after sending: a COMMIT may have arrived).
 */
export async function withCancellingDeadline<T>(
  work: () => Promise<T>,
  ms: number,
  { callsBackWork, graceMs = 1000 }: { callsBackWork: boolean; graceMs?: number },
): Promise<T> {
  const controller = new AbortController();
  // Without the context, nothing can be called back: in flight is all that can be said.
  const deadline: Deadline = {
    signal: controller.signal,
    inFlight: callsBackWork ? 0 : 1,
    committed: false,
  };
  const started = callsBackWork ? current.run(deadline, work) : work();
  let onItsWayAtDeadline = 0;
  // Unreachable after part of it was stored (a statement of its own, a transaction), or called
  // back with statements on their way that PostgreSQL did not say it cancelled: maybe done.
  const running = started.catch((error: unknown) => {
    const unsure = deadline.committed || (onItsWayAtDeadline > 0 && !cancelledByServer(error));
    throw unsure && isDatabaseUnavailable(error) ? passed(ms, true, error) : error;
  });
  if (await settlesWithin(running, ms)) return running;
  if (callsBackWork) {
    onItsWayAtDeadline = deadline.inFlight;
    controller.abort();
    if (await settlesWithin(running, graceMs)) return running;
  }
  // Nobody awaits it any more; a late failure must not become an unhandled rejection.
  running.catch(() => {});
  throw passed(ms, deadline.inFlight > 0 || deadline.committed);
}

/** PostgreSQL's own answer that it cancelled the statement (and rolled it back). */
const cancelledByServer = (error: unknown) => {
  for (let link = error, depth = 0; link && depth < 5; depth++) {
    const { code, severity } = link as { code?: unknown; severity?: unknown };
    if (code === '57014' && typeof severity === 'string') return true;
    link = (link as { cause?: unknown }).cause;
  }
  return false;
};

const passed = (ms: number, maybeApplied: boolean, cause?: unknown) =>
  Object.assign(new Error(`no answer within ${ms} ms`, { cause }), {
    code: 'DATABASE_DEADLINE_PASSED',
    maybeApplied,
  });

/** Whether `promise` settles (either way) within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = promise.then(
    () => true,
    () => true,
  );
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sees each statement as it is sent; the returned function is called once it settles (with its
 * error, if it failed). The host's SQL spans (docs/operations.md, "Traces").
 */
export type StatementObserver = (text: string) => (error?: unknown) => void;

/** What a client's statements report to, besides their request's deadline. */
interface Watchers {
  /** The pool's usage (pool-usage.ts): given for the pool itself, not a transaction's client. */
  pool?: PoolUsage | undefined;
  observe?: StatementObserver | undefined;
}

/**
 * The postgres.js client as drizzle uses it (`unsafe`, `begin`, `savepoint`), every statement and
 * transaction watched, in the one place that sees them all: bound to the deadline of the request
 * it runs for, if any (background work, such as jobs, drains and streams already answered, runs
 * outside any deadline), counted in the pool's usage, and shown to the observer (SQL spans).
 */
export function watchedClient(sql: postgres.Sql, { pool, observe }: Watchers = {}): postgres.Sql {
  const inTransaction = !pool;
  const sent = <Q extends PromiseLike<unknown>>(text: string, query: Q) => {
    if (observe) watch(query, observe(text));
    return pool ? pool.follow(query) : query;
  };
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === 'unsafe')
        return (...args: Parameters<postgres.Sql['unsafe']>) => {
          const deadline = current.getStore();
          if (!deadline) return sent(args[0], target.unsafe(...args));
          if (deadline.signal.aborted) throw refused();
          // Committed when it completes: a statement of its own that may write (not a select).
          const commits = !inTransaction && !/^\s*select\b/i.test(args[0]);
          return sent(args[0], follow(deadline, target.unsafe(...args), commits));
        };
      if (property === 'begin' || property === 'savepoint') {
        return (...args: unknown[]) => {
          const started = transaction(target, property, args, observe);
          return pool && property === 'begin' ? pool.follow(started) : started;
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

const watch = (query: PromiseLike<unknown>, settled: (error?: unknown) => void) =>
  void query.then(() => settled(), settled);

/** Counts a statement in flight until it settles, and cancels it if the deadline passes first. */
function follow<Q extends { cancel(): unknown } & PromiseLike<unknown>>(
  deadline: Deadline,
  query: Q,
  commits: boolean,
): Q {
  deadline.inFlight++;
  const cancel = () => void query.cancel();
  deadline.signal.addEventListener('abort', cancel, { once: true });
  // `then` starts the statement after a microtask, once the caller has chosen its result form
  // (drizzle calls `.values()` at once); the caller's own `await` then shares the same run.
  query.then(
    () => settle(commits),
    () => settle(false),
  );
  function settle(committed: boolean) {
    deadline.inFlight--;
    if (committed) deadline.committed = true;
    deadline.signal.removeEventListener('abort', cancel);
  }
  return query;
}

/**
 * `begin` or `savepoint` with the callback's client watched too. A transaction counts as
 * in flight from its first statement of work until it settles: its COMMIT, sent by postgres.js
 * itself, may be on its way when the connection goes silent.
 */
function transaction(
  target: postgres.Sql,
  method: 'begin' | 'savepoint',
  args: unknown[],
  observe: StatementObserver | undefined,
) {
  const deadline = current.getStore();
  const last = args.length - 1;
  const callback = args[last] as (sql: postgres.Sql) => unknown;
  let entered = false;
  args[last] = (sql: postgres.Sql) => {
    if (deadline && method === 'begin' && !entered) {
      if (deadline.signal.aborted) throw refused();
      entered = true;
      deadline.inFlight++;
    }
    return callback(watchedClient(sql, { observe }));
  };
  const start = (target as unknown as Record<typeof method, (...a: unknown[]) => Promise<unknown>>)[
    method
  ];
  const started = start(...args);
  if (!deadline || method !== 'begin') return started;
  const settle = () => {
    if (entered) deadline.inFlight--;
  };
  return started.then(
    (value) => {
      settle();
      deadline.committed = true;
      return value;
    },
    (error: unknown) => {
      settle();
      throw error;
    },
  );
}
