import { AppError } from '../errors';

/**
 * A bounded queue for image work (docs/contract/media.md, Bounded work): at most `running` jobs
 * at once (one libvips thread each, so the cores are shared and the event loop keeps running),
 * at most `waiting` more in line; beyond that a 503 with `Retry-After`, never unbounded memory.
 */
export function workQueue(options: { running: number; waiting: number }) {
  let active = 0;
  const line: Array<() => void> = [];
  // A finished job hands its slot to the first in line, so nobody overtakes the line.
  const release = () => {
    const next = line.shift();
    if (next) next();
    else active--;
  };
  return {
    async run<T>(job: () => Promise<T>): Promise<T> {
      if (active < options.running) active++;
      else if (line.length >= options.waiting)
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'Muitas imagens em processamento; tente de novo em instantes',
        );
      else await new Promise<void>((resolve) => line.push(resolve));
      try {
        return await job();
      } finally {
        release();
      }
    },
    get load() {
      return { active, waiting: line.length };
    },
  };
}
export type WorkQueue = ReturnType<typeof workQueue>;
