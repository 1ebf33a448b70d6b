/**
 * The totals of members' own history pages, kept per member until their next change (issue 19 §2). A
 * member's total is a count of their ledger rows up to `COUNT_CAP` past the page: 8.6 ms of database time
 * at 18,000 rows (the scale seed's member1), paid by every page view while the page itself costs a
 * fraction of a millisecond. It only changes when a ledger row of theirs is written, and every posting
 * names its parties in the live changes (`LiveChanges.touchUser`), so a member's kept totals are dropped
 * the moment this process commits one of theirs and when another replica's change is heard on the bus.
 * `TOTALS_TTL_MS` bounds what a missed bus event could leave stale. The page's rows are always read.
 */
import type { FastifyInstance } from 'fastify';
import type { CappedTotal } from '../../db/paging.ts';
import { watchChanges } from '../../lib/live-changes.ts';
import { ResponseCache } from '../../lib/response-cache.ts';

/** How long a member's kept total is used at most (milliseconds). */
export const TOTALS_TTL_MS = 5000;

/** Kept totals of members' own lists; `total` answers one, `stop` stops listening for changes. */
export interface MemberTotals {
  /**
   * The total of `memberId`'s list described by `key` (the filters and the page's offset): the kept one,
   * else `count()`'s, kept until the member's next change. Throws what `count` throws.
   */
  total(memberId: string, key: string, count: () => Promise<CappedTotal>): Promise<CappedTotal>;
  stop(): void;
}

/** Starts the kept totals of `app`'s process, dropped per member on their changes. */
export function startMemberTotals(app: FastifyInstance): MemberTotals {
  const cache = new ResponseCache<CappedTotal>({ ttlMs: TOTALS_TTL_MS, max: 20_000 });
  const stop = watchChanges(app.live, (changed) => {
    for (const u of changed.users) cache.invalidate(u);
  });
  return { total: (memberId, key, count) => cache.get(memberId, key, count), stop };
}
