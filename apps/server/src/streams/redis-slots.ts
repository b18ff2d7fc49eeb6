import { randomUUID } from 'node:crypto';
import { tooManyStreams, type StreamSlots } from '@campus/core';

/** How long a lease lasts without renewal, and how often this process renews its own. */
const LEASE_MS = 60_000;
const RENEW_MS = 20_000;

/**
 * One sorted set per user: a member per open stream, scored with its lease's end (Redis's own
 * clock, so machines' clocks do not matter). Expired members go first; then the count and the
 * add happen in one script, so two processes cannot both take the last slot.
 */
const TAKE = `
local now = redis.call('TIME')
local nowMs = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], nowMs + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;
const RENEW = `
local now = redis.call('TIME')
local nowMs = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('ZADD', KEYS[1], 'XX', nowMs + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

/**
 * The per-user limit of open streams counted in Redis (REDIS_URL) instead of the database. The
 * client library is loaded only then.
 */
export async function redisStreamSlots(url: string, max: number) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  const held = new Map<string, string>(); // lease id → user key
  const keyOf = (userId: string) => `streams:${userId}`;
  const renewal = setInterval(() => {
    for (const [id, key] of held)
      void redis.eval(RENEW, 1, key, String(LEASE_MS), id).catch(() => {});
  }, RENEW_MS);
  renewal.unref();

  const slots: StreamSlots = {
    async take(userId) {
      const id = randomUUID();
      const key = keyOf(userId);
      const taken = await redis.eval(TAKE, 1, key, String(max), String(LEASE_MS), id);
      if (Number(taken) !== 1) throw tooManyStreams(max);
      held.set(id, key);
      return () => {
        if (!held.delete(id)) return;
        // If this fails (Redis away), the lease expires by itself.
        void redis.zrem(key, id).catch(() => {});
      };
    },
    heldHere: () => held.size,
  };
  return {
    slots,
    async close() {
      clearInterval(renewal);
      await redis.quit();
    },
  };
}
