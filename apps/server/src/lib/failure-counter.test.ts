/** The failure counter in memory and in Redis (127.0.0.1:6379, as `REDIS_URL` names it on these machines). */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type FailureCounter, memoryFailureCounter, redisFailureCounter } from './failure-counter.ts';

const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
afterAll(() => redis.disconnect());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each<[string, () => FailureCounter]>([
  ['memory', () => memoryFailureCounter()],
  ['redis', () => redisFailureCounter(redis, `test-${randomBytes(6).toString('hex')}`)],
])('%s failure counter', (_name, make) => {
  it('answers each record with the count, atomically under concurrency', async () => {
    const c = make();
    const answers = await Promise.all(Array.from({ length: 50 }, () => c.record('k', 60_000)));
    expect(answers.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await c.count('k')).toBe(50);
  });

  it('undoes one count, never below zero, and resets', async () => {
    const c = make();
    await c.record('k');
    await c.record('k');
    await c.undo('k');
    expect(await c.count('k')).toBe(1);
    await c.undo('k');
    await c.undo('k');
    expect(await c.count('k')).toBe(0);
    expect(await c.record('k')).toBe(1);
    await c.reset('k');
    expect(await c.count('k')).toBe(0);
  });

  it('ends a window after its length from the first count, not extended by later ones', async () => {
    const c = make();
    await c.record('w', 300);
    await sleep(200);
    expect(await c.record('w', 300)).toBe(2);
    await sleep(150);
    expect(await c.count('w')).toBe(0);
  });

  it('keeps a mark for its time', async () => {
    const c = make();
    expect(await c.isMarked('m')).toBe(false);
    await c.mark('m', 200);
    expect(await c.isMarked('m')).toBe(true);
    // A mark is not a count.
    expect(await c.count('m')).toBe(0);
    await sleep(300);
    expect(await c.isMarked('m')).toBe(false);
  });
});
