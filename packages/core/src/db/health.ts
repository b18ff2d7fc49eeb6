import postgres from 'postgres';
import { withDeadline } from './unavailable';

/**
 * Whether PostgreSQL can be reached, as every request of one process sees it (docs/operations.md,
 * "When the database is out of reach"). A probe of its own (one connection, `select 1`) runs every
 * `intervalMs`, and at once when a query failed as unreachable (`suspect`); a probe that fails or
 * does not answer within `timeoutMs` marks the database down until one answers. While it is down,
 * requests are answered 503 at once instead of each waiting for its deadline: a cut is known
 * within about a second, refused or black-holed alike.
 */
export interface DatabaseHealth {
  up(): boolean;
  /** A query failed as unreachable: probe now. */
  suspect(): void;
  stop(): Promise<void>;
}

export function databaseHealth(options: {
  url: string;
  /** Seconds to open the probe's connection (postgres.js `connect_timeout`). */
  connectTimeoutS?: number;
  intervalMs?: number;
  timeoutMs?: number;
  onChange?: (up: boolean, error?: unknown) => void;
}): DatabaseHealth {
  const { intervalMs = 1000, timeoutMs = 1000 } = options;
  const open = () =>
    postgres(options.url, {
      max: 1,
      connect_timeout: options.connectTimeoutS ?? 1,
      prepare: false,
      onnotice: () => {},
    });
  let client = open();
  let up = true;
  let stopped = false;
  let probing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const set = (next: boolean, error?: unknown) => {
    if (next !== up) options.onChange?.(next, error);
    up = next;
  };

  async function probe() {
    try {
      await withDeadline(client`select 1`, timeoutMs);
      set(true);
    } catch (error) {
      set(false, error);
      // A connection that hangs (a black hole) is dropped: the next probe opens a fresh one.
      const hung = client;
      client = open();
      void hung.end({ timeout: 0 }).catch(() => {});
    }
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => void runProbe(), up ? intervalMs : intervalMs / 2);
    timer.unref();
  }

  function runProbe() {
    clearTimeout(timer);
    probing ??= probe().finally(() => {
      probing = undefined;
      schedule();
    });
    return probing;
  }

  schedule();
  return {
    up: () => up,
    suspect: () => void runProbe(),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await probing;
      await client.end({ timeout: 1 }).catch(() => {});
    },
  };
}
