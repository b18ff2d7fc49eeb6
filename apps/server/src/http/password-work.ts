import { availableParallelism } from 'node:os';
import { serverBusy } from '@campus/api';

/**
 * Password hashing as a bounded resource of one process (docs/operations.md, "Password checks").
 * scrypt at OWASP's cost takes ~128 MiB and a core for a few hundred ms on libuv's thread pool,
 * which also serves file and DNS work: at most `concurrency` run at once, at most `queueLength`
 * wait, for `maxWaitMs` at most; past that a call is refused (503 `SERVER_BUSY`, `Retry-After`)
 * instead of waiting until its request's deadline.
 *
 * The waiting calls are served round-robin by client address, an address with nothing waiting
 * first; when the queue is full a newcomer takes the place of the newest waiter of the address
 * holding the most places. A few addresses flooding wrong passwords keep a fair share, not the
 * whole queue, so a login from anywhere else still gets in.
 */
export interface PasswordWork {
  run<T>(client: string, work: () => Promise<T>): Promise<T>;
  state(): { running: number; queued: number };
}

interface Waiter {
  start: () => void;
  refuse: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

/**
 * Checks at once, by default: the cores this process may use (its share when WEB_CONCURRENCY
 * processes share the machine), and at most 3, so that one of libuv's 4 threads stays free for
 * file and DNS work.
 */
export function defaultPasswordConcurrency(processesPerMachine = 1): number {
  return Math.max(1, Math.min(3, Math.floor(availableParallelism() / processesPerMachine)));
}

export function passwordWork({
  concurrency,
  queueLength,
  maxWaitMs = 3000,
}: {
  concurrency: number;
  queueLength: number;
  maxWaitMs?: number;
}): PasswordWork {
  // Insertion order is the rotation: the client served goes to the back.
  const queues = new Map<string, Waiter[]>();
  let running = 0;
  let queued = 0;

  const execute = <T>(work: () => Promise<T>): Promise<T> => {
    running++;
    return Promise.resolve()
      .then(work)
      .finally(() => {
        running--;
        startNext();
      });
  };

  function startNext() {
    while (running < concurrency && queued > 0) {
      const [client, waiters] = queues.entries().next().value!;
      queues.delete(client);
      const waiter = waiters.shift()!;
      queued--;
      if (waiters.length) queues.set(client, waiters);
      clearTimeout(waiter.timer);
      waiter.start();
    }
  }

  function remove(client: string, waiter: Waiter) {
    const waiters = queues.get(client);
    const at = waiters?.indexOf(waiter) ?? -1;
    if (at < 0) return;
    waiters!.splice(at, 1);
    queued--;
    if (!waiters!.length) queues.delete(client);
    clearTimeout(waiter.timer);
    waiter.refuse(serverBusy());
  }

  /** Frees a place for `client` from the address holding the most, if that is more than its own + 1. */
  function evictFor(client: string): boolean {
    let longest: [string, Waiter[]] | undefined;
    for (const entry of queues)
      if (!longest || entry[1].length > longest[1].length) longest = entry;
    const own = queues.get(client)?.length ?? 0;
    if (!longest || longest[1].length <= own + 1) return false;
    remove(longest[0], longest[1].at(-1)!);
    return true;
  }

  /** An address with nothing waiting goes first; one already waiting adds to its own line. */
  function enqueue(client: string, waiter: Waiter) {
    queued++;
    const waiters = queues.get(client);
    if (waiters) return void waiters.push(waiter);
    const rest = [...queues];
    queues.clear();
    queues.set(client, [waiter]);
    for (const [other, line] of rest) queues.set(other, line);
  }

  return {
    run(client, work) {
      if (running < concurrency && queued === 0) return execute(work);
      if (queued >= queueLength && !evictFor(client)) return Promise.reject(serverBusy());
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          start: () => void execute(work).then(resolve, reject),
          refuse: reject,
          timer: setTimeout(() => remove(client, waiter), maxWaitMs),
        };
        waiter.timer.unref();
        enqueue(client, waiter);
      });
    },
    state: () => ({ running, queued }),
  };
}
