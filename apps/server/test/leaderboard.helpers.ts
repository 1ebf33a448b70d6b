/**
 * Helpers of the kept leaderboard's tests: wait until the ranking has followed every
 * committed posting, and the brute-force ranking it must equal (the window over `balances` the route ran
 * on every request before, `findRanked`).
 */
import { formatAtPrecision, fromNumeric, type Leader, type LeaderboardResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { BuiltApp } from '../src/app.ts';
import type { Db } from '../src/db/client.ts';
import { findCurrency } from '../src/modules/bank/currencies.queries.ts';
import { findRanked } from '../src/modules/leaderboard/leaderboard.queries.ts';
import type { LeaderboardStore } from '../src/modules/leaderboard/leaderboard.store.ts';
import { syncLeaderboard } from '../src/modules/leaderboard/leaderboard.sync.ts';

/**
 * Runs the job's tick (waiting for another replica's) until the store's mark has passed the database's
 * clock as it was when called: everything committed before then is in the ranking. The horizon can lag
 * behind a transaction another test file keeps open, hence the loop.
 */
export async function leaderboardCaughtUp(db: Db, store: LeaderboardStore): Promise<void> {
  const res = await db.execute<{ t: string | Date }>(sql`SELECT clock_timestamp() AS t`);
  const now = new Date(res.rows[0]?.t ?? 0);
  for (let i = 0; i < 1000; i++) {
    await syncLeaderboard(db, store, { wait: true });
    const mark = await store.mark(db);
    if (mark && mark > now) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the kept leaderboard did not catch up in 10 s');
}

/** `leaderboardCaughtUp` on a built app's own store. */
export function caughtUp(built: BuiltApp): Promise<void> {
  return leaderboardCaughtUp(built.database.db, built.leaderboard.store);
}

/** The leaderboard response as the brute-force ranking gives it (the route's answer before the ranking was kept). */
export async function bruteForceLeaderboard(
  db: Db,
  currencyId: number,
  viewerId: string | null,
): Promise<LeaderboardResponse> {
  const currency = await findCurrency(db, currencyId);
  if (!currency) throw new Error('no currency');
  const rows = await findRanked(db, currencyId, viewerId, 100, 5);
  const toLeader = (r: (typeof rows)[number]): Leader => ({
    rank: Number(r.rank),
    nickname: r.nickname,
    amount: formatAtPrecision(fromNumeric(r.amount), currency.precision),
  });
  const own = rows.find((r) => r.mine);
  const position = own ? Number(own.rank) : null;
  const leaders = rows.filter((r) => Number(r.rank) <= 100).map(toLeader);
  const around = position === null ? [] : rows.filter((r) => Math.abs(Number(r.rank) - position) <= 5).map(toLeader);
  return {
    leaders,
    position,
    balance: own ? toLeader(own).amount : null,
    around,
    message:
      leaders.length === 0 ? `No ${currency.ticker} holders yet` : `Top ${leaders.length} ${currency.ticker} holders`,
  };
}
