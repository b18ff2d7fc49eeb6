import { describe, expect, it, vi } from 'vitest';
import { createRefreshCoordinator, type RenewOutcome } from './refresh';

/** A refresh that resolves when told, counting its calls. */
function controlledRefresh() {
  let resolve!: (outcome: RenewOutcome) => void;
  const refresh = vi.fn(() => new Promise<RenewOutcome>((r) => (resolve = r)));
  return { refresh, finish: (outcome: RenewOutcome) => resolve(outcome) };
}

describe('createRefreshCoordinator', () => {
  it('runs one refresh for every call that failed meanwhile', async () => {
    let token = 'old';
    const { refresh, finish } = controlledRefresh();
    const coordinator = createRefreshCoordinator({ currentAccessToken: () => token, refresh });
    const waits = [coordinator.renew('old'), coordinator.renew('old'), coordinator.renew('old')];
    expect(coordinator.refreshing).toBe(true);
    token = 'new';
    finish('renewed');
    expect(await Promise.all(waits)).toEqual(['renewed', 'renewed', 'renewed']);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(coordinator.refreshing).toBe(false);
  });

  it('does not refresh again for a call made with a token that was already replaced', async () => {
    const refresh = vi.fn(async (): Promise<RenewOutcome> => 'renewed');
    const coordinator = createRefreshCoordinator({ currentAccessToken: () => 'newer', refresh });
    expect(await coordinator.renew('older')).toBe('renewed');
    expect(refresh).not.toHaveBeenCalled();
  });

  it('refreshes when there is no access token yet (after a reload)', async () => {
    const refresh = vi.fn(async (): Promise<RenewOutcome> => 'renewed');
    const coordinator = createRefreshCoordinator({ currentAccessToken: () => null, refresh });
    expect(await coordinator.renew(null)).toBe('renewed');
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('starts a new refresh after the previous one finished, refused or not', async () => {
    const outcomes: RenewOutcome[] = ['refused', 'renewed'];
    const refresh = vi.fn(async () => outcomes.shift()!);
    const coordinator = createRefreshCoordinator({ currentAccessToken: () => 'same', refresh });
    expect(await coordinator.renew('same')).toBe('refused');
    expect(await coordinator.renew('same')).toBe('renewed');
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('reports a refresh that throws as failed, and runs it inside the lock', async () => {
    let locked = 0;
    const coordinator = createRefreshCoordinator({
      currentAccessToken: () => 'x',
      refresh: () => Promise.reject(new Error('offline')),
      withLock: (task) => {
        locked++;
        return task();
      },
    });
    expect(await coordinator.renew('x')).toBe('failed');
    expect(locked).toBe(1);
    expect(coordinator.refreshing).toBe(false);
  });
});
