/**
 * lru-cache options that bound a cache to `n` entries without allocating room for all of them at start:
 * with `max`, lru-cache allocates its arrays for `max` entries up front (the caches of one server held
 * room for hundreds of thousands of entries: time on every start, and memory, used or not); with `maxSize`
 * and a size of 1 an entry, the same bound, its arrays grow as it fills.
 */
export function upTo(n: number): { maxSize: number; sizeCalculation: () => number } {
  return { maxSize: n, sizeCalculation: () => 1 };
}
