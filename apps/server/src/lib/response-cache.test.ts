import { describe, expect, it } from 'vitest';
import { ResponseCache } from './response-cache.ts';

/** A load that counts its calls and answers `v<n>` after `ms` milliseconds. */
function counter(ms = 0) {
  let calls = 0;
  const load = async () => {
    calls += 1;
    const n = calls;
    await new Promise((r) => setTimeout(r, ms));
    return `v${n}`;
  };
  return { load, calls: () => calls };
}

describe('the response cache', () => {
  it('loads once for concurrent readers and serves the kept answer after', async () => {
    const cache = new ResponseCache<string>({ ttlMs: 60_000 });
    const c = counter(20);
    const answers = await Promise.all(Array.from({ length: 10 }, () => cache.get('pair', 'book', c.load)));
    expect(answers).toEqual(Array(10).fill('v1'));
    expect(await cache.get('pair', 'book', c.load)).toBe('v1');
    expect(c.calls()).toBe(1);
    // Another key of the group, and the same key of another group, are their own answers.
    expect(await cache.get('pair', 'depth', c.load)).toBe('v2');
    expect(await cache.get('other', 'book', c.load)).toBe('v3');
  });

  it('drops a group on invalidate, a load under way included, and leaves other groups', async () => {
    const cache = new ResponseCache<string>({ ttlMs: 60_000 });
    const c = counter(30);
    expect(await cache.get('other', 'book', c.load)).toBe('v1');
    const underWay = cache.get('pair', 'book', c.load);
    cache.invalidate('pair');
    // The reader that started before the change gets its load; a reader after it loads afresh.
    expect(await underWay).toBe('v2');
    expect(await cache.get('pair', 'book', c.load)).toBe('v3');
    expect(await cache.get('pair', 'book', c.load)).toBe('v3');
    expect(await cache.get('other', 'book', c.load)).toBe('v1');
    cache.clear();
    expect(await cache.get('other', 'book', c.load)).toBe('v4');
  });

  it('answers the readers of a load under way when every answer is dropped or the cache is full', async () => {
    const cache = new ResponseCache<string>({ ttlMs: 60_000, max: 2 });
    const c = counter(30);
    const underWay = cache.get('pair', 'book', c.load);
    cache.clear();
    // More keys than the cache holds while the first load is still under way: it is evicted.
    await Promise.all(['a', 'b', 'c'].map((k) => cache.get('other', k, c.load)));
    expect(await underWay).toBe('v1');
  });

  it('never serves an answer from before a change, when more groups changed than it remembers', async () => {
    const cache = new ResponseCache<string>({ ttlMs: 60_000, maxGroups: 2 });
    const c = counter();
    expect(await cache.get('a', 'k', c.load)).toBe('v1');
    cache.invalidate('a');
    expect(await cache.get('a', 'k', c.load)).toBe('v2');
    // Two more groups change: a's change is forgotten (least recently used), and with it...
    cache.invalidate('b');
    cache.invalidate('c');
    // ...neither its answer from before the change nor any other old answer is served: it loads afresh.
    expect(await cache.get('a', 'k', c.load)).toBe('v3');
    expect(await cache.get('a', 'k', c.load)).toBe('v3');
    cache.invalidate('a');
    expect(await cache.get('a', 'k', c.load)).toBe('v4');
  });

  it('loads again once an answer is older than the ttl', async () => {
    const cache = new ResponseCache<string>({ ttlMs: 30 });
    const c = counter();
    expect(await cache.get('pair', 'book', c.load)).toBe('v1');
    await new Promise((r) => setTimeout(r, 60));
    expect(await cache.get('pair', 'book', c.load)).toBe('v2');
  });

  it('keeps no failed load: every waiter gets the error, the next reader tries again', async () => {
    const cache = new ResponseCache<string>({ ttlMs: 60_000 });
    let fail = true;
    const load = async () => {
      await new Promise((r) => setTimeout(r, 10));
      if (fail) throw new Error('database down');
      return 'ok';
    };
    const results = await Promise.allSettled([cache.get('p', 'k', load), cache.get('p', 'k', load)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await cache.get('p', 'k', load)).toBe('ok');
  });
});
