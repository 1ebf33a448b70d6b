/**
 * Failed sign-ins per key (account and address, address) in a 15-minute window (DESIGN §2):
 * in Redis when `REDIS_URL` is set, so replicas share it; in memory otherwise.
 */
import type { Redis } from 'ioredis';

const WINDOW_MS = 15 * 60 * 1000;

export interface FailureCounter {
  /** Failures recorded for `key` in the current window. */
  count(key: string): Promise<number>;
  /** Records one failure for `key`. */
  record(key: string): Promise<void>;
  /** Forgets `key` (after a successful sign-in). */
  reset(key: string): Promise<void>;
}

/** An in-process counter: fine for one server. */
export function memoryFailureCounter(): FailureCounter {
  const entries = new Map<string, { n: number; until: number }>();
  const live = (key: string) => {
    const e = entries.get(key);
    if (e && e.until < Date.now()) entries.delete(key);
    return entries.get(key);
  };
  return {
    count: async (key) => live(key)?.n ?? 0,
    record: async (key) => {
      const e = live(key);
      if (e) e.n++;
      else entries.set(key, { n: 1, until: Date.now() + WINDOW_MS });
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
