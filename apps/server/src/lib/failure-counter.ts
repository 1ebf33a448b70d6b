/**
 * Counters in fixed windows, and marks that expire, for the accounts' limits (DESIGN §2, §8): failed
 * sign-ins per account and address, per address and per account; mails per recipient; the addresses an
 * account signed in from. In Redis when `REDIS_URL` is set, so replicas share them; in memory otherwise.
 * A window starts at a key's first count and is not extended by later ones.
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { upTo } from './lru.ts';

/** The default window: 15 minutes (the per-address sign-in limits). */
export const DEFAULT_WINDOW_MS = 15 * 60 * 1000;

export interface FailureCounter {
  /** Counts recorded for `key` in its current window. */
  count(key: string): Promise<number>;
  /**
   * Records one for `key` and answers the count with it, atomically (two replicas recording at once get
   * two different answers), so a caller can reserve an attempt before making it. A new window lasts
   * `windowMs` (default 15 minutes).
   */
  record(key: string, windowMs?: number): Promise<number>;
  /** Takes back one count of `key` (a reserved attempt that succeeded); never below zero. */
  undo(key: string): Promise<void>;
  /** Forgets `key` (after a successful sign-in). */
  reset(key: string): Promise<void>;
  /** Sets the mark `key` for `ttlMs` (again from now if it is set). */
  mark(key: string, ttlMs: number): Promise<void>;
  /** Whether the mark `key` is set. */
  isMarked(key: string): Promise<boolean>;
}

/** Keys an in-process counter keeps at most, of counts and of marks each: bounded, the oldest go first. */
const MAX_KEYS = 100_000;

/** An in-process counter: fine for one server. */
export function memoryFailureCounter(): FailureCounter {
  const entries = new LRUCache<string, { n: number }>({
    ...upTo(MAX_KEYS),
    ttl: DEFAULT_WINDOW_MS,
    updateAgeOnGet: false,
  });
  // Marks apart from counts, so that a flood of failures with made-up names cannot push them out.
  const marks = new LRUCache<string, true>({ ...upTo(MAX_KEYS), ttl: DEFAULT_WINDOW_MS, updateAgeOnGet: false });
  return {
    count: async (key) => entries.get(key)?.n ?? 0,
    record: async (key, windowMs = DEFAULT_WINDOW_MS) => {
      const e = entries.get(key);
      // The window starts at the first count: a later one does not extend it.
      if (e) return ++e.n;
      entries.set(key, { n: 1 }, { ttl: windowMs });
      return 1;
    },
    undo: async (key) => {
      const e = entries.get(key);
      if (e && e.n > 0) e.n--;
    },
    reset: async (key) => {
      entries.delete(key);
    },
    mark: async (key, ttlMs) => {
      marks.set(key, true, { ttl: ttlMs });
    },
    isMarked: async (key) => marks.has(key),
  };
}

/** DECR that deletes the key at zero or below, so an undo after the window ended leaves nothing behind. */
const UNDO_SCRIPT = "local n = redis.call('DECR', KEYS[1]) if n <= 0 then redis.call('DEL', KEYS[1]) end return n";

/** A counter shared by every replica through Redis, its keys under `starlight:<namespace>:`. */
export function redisFailureCounter(redis: Redis, namespace = 'login-failures'): FailureCounter {
  const k = (key: string) => `starlight:${namespace}:${key}`;
  return {
    count: async (key) => Number((await redis.get(k(key))) ?? 0),
    record: async (key, windowMs = DEFAULT_WINDOW_MS) => {
      const results = await redis.multi().incr(k(key)).pexpire(k(key), windowMs, 'NX').exec();
      const [err, n] = results?.[0] ?? [new Error('Redis transaction aborted'), 0];
      if (err) throw err;
      return Number(n);
    },
    undo: async (key) => {
      await redis.eval(UNDO_SCRIPT, 1, k(key));
    },
    reset: async (key) => {
      await redis.del(k(key));
    },
    mark: async (key, ttlMs) => {
      await redis.set(k(`mark:${key}`), '1', 'PX', ttlMs);
    },
    isMarked: async (key) => (await redis.exists(k(`mark:${key}`))) === 1,
  };
}
