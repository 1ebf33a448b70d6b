/**
 * Failed sign-ins per key (account and address, address) in a 15-minute window (DESIGN §2):
 * in Redis when `REDIS_URL` is set, so replicas share it; in memory otherwise.
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

const WINDOW_MS = 15 * 60 * 1000;

export interface FailureCounter {
  /** Failures recorded for `key` in the current window. */
  count(key: string): Promise<number>;
  /** Records one failure for `key`. */
  record(key: string): Promise<void>;
  /** Forgets `key` (after a successful sign-in). */
  reset(key: string): Promise<void>;
}

/** Keys an in-process counter keeps at most: one per account and address tried, so bounded. */
const MAX_KEYS = 100_000;

/** An in-process counter: fine for one server. Keys expire with their window and the oldest go first. */
export function memoryFailureCounter(): FailureCounter {
  const entries = new LRUCache<string, { n: number }>({ max: MAX_KEYS, ttl: WINDOW_MS, updateAgeOnGet: false });
  return {
    count: async (key) => entries.get(key)?.n ?? 0,
    record: async (key) => {
      const e = entries.get(key);
      // The window starts at the first failure: a later one does not extend it.
      if (e) e.n++;
      else entries.set(key, { n: 1 });
    },
    reset: async (key) => {
      entries.delete(key);
    },
  };
}

/** A counter shared by every replica through Redis. */
export function redisFailureCounter(redis: Redis): FailureCounter {
  const k = (key: string) => `starlight:login-failures:${key}`;
  return {
    count: async (key) => Number((await redis.get(k(key))) ?? 0),
    record: async (key) => {
      await redis.multi().incr(k(key)).pexpire(k(key), WINDOW_MS, 'NX').exec();
    },
    reset: async (key) => {
      await redis.del(k(key));
    },
  };
}
