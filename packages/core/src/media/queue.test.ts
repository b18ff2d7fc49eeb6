import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { workQueue } from './queue';

describe('workQueue', () => {
  it('runs at most `running` jobs, lines up `waiting` more in order, refuses beyond with a 503', async () => {
    const queue = workQueue({ running: 1, waiting: 1 });
    const order: string[] = [];
    let release!: () => void;
    const first = queue.run(() =>
      new Promise<void>((resolve) => (release = resolve)).then(() => order.push('a')),
    );
    const second = queue.run(async () => order.push('b'));
    expect(queue.load).toEqual({ active: 1, waiting: 1 });
    const third = queue.run(async () => order.push('c'));
    await expect(third).rejects.toBeInstanceOf(AppError);
    await expect(third).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['a', 'b']);
    expect(queue.load).toEqual({ active: 0, waiting: 0 });
  });
});
