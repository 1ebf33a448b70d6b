/**
 * List totals kept per group (a member, a collection) until the group's next change: a
 * capped count of a big list costs up to `COUNT_CAP` index entries on every page view while the page
 * itself costs a fraction of a millisecond, and it only changes when a request names the group in its live
 * changes. A group's kept totals are dropped the moment this process commits such a change and when
 * another replica's change is heard on the bus (`watchChanges`); `TOTALS_TTL_MS` bounds what a missed bus
 * event could leave stale. Used for members' own lists (`startMemberTotals`) and by items/items.totals.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { CappedTotal } from '../db/paging.ts';
import { type ChangedIds, watchChanges } from './live-changes.ts';
import { ResponseCache } from './response-cache.ts';

/** How long a kept total is used at most (milliseconds). */
export const TOTALS_TTL_MS = 5000;

/** Kept totals by group; `total` answers one, `stop` stops listening for changes. */
export interface KeptTotals {
  /**
   * The total of `group`'s list described by `key` (its filters and page start): the kept one, else
   * `count()`'s, kept until the group's next change. Throws what `count` throws.
   */
  total(group: string, key: string, count: () => Promise<CappedTotal>): Promise<CappedTotal>;
  stop(): void;
}

/**
 * Starts kept totals in `app`'s process, at most `max` of them, dropped per group for each group that
 * `changedGroups` finds in a change set.
 */
export function startKeptTotals(
  app: FastifyInstance,
  changedGroups: (changed: ChangedIds) => readonly string[],
  max: number,
): KeptTotals {
  const cache = new ResponseCache<CappedTotal>({ ttlMs: TOTALS_TTL_MS, max });
  const stop = watchChanges(app.live, (changed) => {
    for (const group of changedGroups(changed)) cache.invalidate(group);
  });
  return { total: (group, key, count) => cache.get(group, key, count), stop };
}

/**
 * Kept totals of members' own lists, by member id (the group), dropped on every change that names the
 * member (`LiveChanges.touchUser`; a ledger posting names every party of its rows, `touchParties`). A
 * member's total is a capped count of their rows: for a member with a long history, counting them on every
 * history page view cost far more than reading the page itself; their items, forge processes and checkouts
 * likewise. Each list that keeps its totals here names every write to its rows with `touchUser` of the
 * member, and keys its totals by the list, its filters and its page start. Holds at most `max` totals.
 */
export function startMemberTotals(app: FastifyInstance, max = 20_000): KeptTotals {
  return startKeptTotals(app, (changed) => changed.users, max);
}
