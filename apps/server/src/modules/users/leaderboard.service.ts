/** The leaderboard (DESIGN §6; SPEC §2 Leaderboard): the top holders of a currency and the caller's rank. */
import { formatAtPrecision, fromNumeric, type Leader, type LeaderboardResponse } from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { KeptCurrencies } from '../bank/currencies.cache.ts';
import type { CurrencyRow } from '../bank/currencies.queries.ts';
import { findShownMembers, findViewerHolding } from './leaderboard.queries.ts';
import { type LeaderboardStore, type RankEntry, ranksAhead } from './leaderboard.store.ts';

/** DESIGN §6: the top 100 holders. */
const TOP = 100;
/** Ours: the holders shown above and below the caller ("around me"). */
const AROUND = 5;

/**
 * `leaderboard {currencyId}` for `viewer` (null when signed out): `{leaders, position, balance, around,
 * message}`, amounts at the currency's precision, private members as `Anonymous` to others. Throws
 * NOT_FOUND `Currency not found`.
 *
 * Read from the kept ranking (`store`, issue 19 §2), which follows the ledger within a couple of
 * seconds; the viewer's own place is read-your-writes: their balance is read now and put at its place in
 * the kept ranking (their kept entry, if it lags, left out), so a member sees their own posting at once.
 * Nicknames and privacy are read now for the rows shown; the currency's ticker and precision are the kept
 * ones (`currencies`, bank/currencies.cache.ts).
 */
export async function leaderboard(
  db: Db,
  store: LeaderboardStore,
  currencies: KeptCurrencies,
  currencyId: number,
  viewer: AuthUser | null,
  cache?: VisitorCache,
): Promise<LeaderboardResponse> {
  const currency = await currencies.get(currencyId);
  if (viewer || !cache) return answer(db, store, currency, viewer);
  // A visitor's answer changes only when the job has ticked (the mark moves, about every second):
  // the same answer until then, one computation for concurrent visitors.
  const version = await store.version(db);
  if (!version) return answer(db, store, currency, null);
  const key = `${version}:${currency.precision}:${currency.ticker}`;
  const now = Date.now();
  const hit = cache.get(currency.currencyId);
  if (hit && hit.key === key && now - hit.at < VISITOR_CACHE_MAX_MS) return hit.value;
  const value = answer(db, store, currency, null);
  cache.set(currency.currencyId, { key, at: now, value });
  value.catch(() => {
    if (cache.get(currency.currencyId)?.value === value) cache.delete(currency.currencyId);
  });
  return value;
}

/**
 * Visitors' answers per currency, each valid while the store's mark is unchanged and at most
 * `VISITOR_CACHE_MAX_MS` old; one per process (a cache only: every replica answers the same ranking
 * within a tick).
 */
export type VisitorCache = Map<number, { key: string; at: number; value: Promise<LeaderboardResponse> }>;

/** Ours: the oldest a visitor's cached answer may be, even when the job has stalled (the mark unchanged). */
const VISITOR_CACHE_MAX_MS = 5000;

/** A fresh, empty visitor cache (one per app). */
export function visitorCache(): VisitorCache {
  return new Map();
}

async function answer(
  db: Db,
  store: LeaderboardStore,
  currency: CurrencyRow,
  viewer: AuthUser | null,
): Promise<LeaderboardResponse> {
  const holding = viewer ? await findViewerHolding(db, viewer.id, currency.currencyId) : null;
  const viewerId = viewer && holding ? viewer.id : null;
  const at: RankEntry | null =
    viewerId && holding?.ranked ? { userId: viewerId, amount: fromNumeric(holding.amount) } : null;
  // One more than shown on each side: the viewer's own kept entry may be among them and is left out.
  const w = await store.read(db, currency.currencyId, TOP + 1, viewerId ? { userId: viewerId, at } : null, AROUND + 1);
  const others = (list: RankEntry[]) => (viewerId ? list.filter((e) => e.userId !== viewerId) : list);

  const top = others(w.top);
  if (at) {
    const i = top.findIndex((e) => ranksAhead(at, e));
    top.splice(i === -1 ? top.length : i, 0, at);
  }
  const leaderEntries = top.slice(0, TOP);
  const keptAhead = w.kept !== null && at !== null && w.kept > at.amount ? 1 : 0;
  const position = at ? w.ahead - keptAhead + 1 : null;
  const before = others(w.before).slice(0, AROUND).reverse();
  const after = others(w.after).slice(0, AROUND);

  const ids = new Set([...leaderEntries, ...before, ...after].map((e) => e.userId));
  const shown = new Map((await findShownMembers(db, [...ids])).map((m) => [m.id, m]));
  const toLeader = (e: RankEntry, rank: number): Leader => {
    const m = shown.get(e.userId);
    const nickname =
      e.userId === viewerId ? (holding?.nickname ?? '') : !m || m.is_anonymous ? 'Anonymous' : m.nickname;
    return { rank, nickname, amount: formatAtPrecision(e.amount, currency.precision) };
  };
  const leaders = leaderEntries.map((e, i) => toLeader(e, i + 1));
  const around =
    at && position !== null
      ? [
          ...before.map((e, i) => toLeader(e, position - before.length + i)),
          toLeader(at, position),
          ...after.map((e, i) => toLeader(e, position + 1 + i)),
        ]
      : [];
  return {
    leaders,
    position,
    balance: at ? formatAtPrecision(at.amount, currency.precision) : null,
    around,
    message:
      leaders.length === 0 ? `No ${currency.ticker} holders yet` : `Top ${leaders.length} ${currency.ticker} holders`,
  };
}
