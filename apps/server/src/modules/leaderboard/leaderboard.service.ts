/** The leaderboard (DESIGN §6; SPEC §2 Leaderboard): the top holders of a currency and the caller's rank. */
import { formatAtPrecision, fromNumeric, type Leader, type LeaderboardResponse } from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import type { AuthUser } from '../../http/access.ts';
import type { CurrencyRow, KeptCurrencies } from '../bank/bank.public.ts';
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
 * Read from the kept ranking (`store`), which follows the ledger within a couple of
 * seconds; the viewer's own place is read-your-writes: their balance is read now and put at its place in
 * the kept ranking (their kept entry, if it lags, left out), so a member sees their own posting at once.
 * Nicknames and privacy are read with the rows shown; the currency's ticker and precision are the kept
 * ones (`currencies`, bank/currencies.cache.ts). The top of the ranking, named, is read once per job tick
 * for everyone (`cache`): a member's answer then reads only their own neighbours. All but the viewer's
 * balance is read from `readDb` (a standby when there is one); that balance from `db`.
 */
export async function leaderboard(
  db: Db,
  readDb: Db,
  store: LeaderboardStore,
  currencies: KeptCurrencies,
  currencyId: number,
  viewer: AuthUser | null,
  cache?: TopCache,
): Promise<LeaderboardResponse> {
  const currency = await currencies.get(currencyId);
  const [version, holding] = await Promise.all([
    cache ? store.version(readDb) : null,
    viewer ? findViewerHolding(db, viewer.id, currency.currencyId) : null,
  ]);
  const top = cache && version ? keptTop(readDb, store, currency, cache, version) : readTop(readDb, store, currency);
  if (!viewer) return (await top).visitor;
  return answer(readDb, store, currency, viewer, holding, top);
}

/** A ranked holder as everyone but themselves sees them: `nickname` is `Anonymous` for a private member. */
interface ShownEntry extends RankEntry {
  nickname: string;
}

/** The first `TOP + 1` of the ranking, named (one more than shown: a viewer's own entry is left out), and a visitor's answer. */
interface Top {
  entries: ShownEntry[];
  visitor: LeaderboardResponse;
}

/**
 * The top of each currency's ranking, valid while the store's mark is unchanged (the job ticks about every
 * second) and at most `TOP_CACHE_MAX_MS` old; one per process (a cache only: every replica reads the same
 * ranking within a tick). Concurrent callers share one read.
 */
export type TopCache = Map<number, { key: string; at: number; value: Promise<Top> }>;

/** Ours: the oldest a cached top may be, even when the job has stalled (the mark unchanged). */
const TOP_CACHE_MAX_MS = 5000;

/** A fresh, empty top cache (one per app). */
export function topCache(): TopCache {
  return new Map();
}

function keptTop(db: Db, store: LeaderboardStore, currency: CurrencyRow, cache: TopCache, version: string) {
  const key = `${version}:${currency.precision}:${currency.ticker}`;
  const now = Date.now();
  const hit = cache.get(currency.currencyId);
  if (hit && hit.key === key && now - hit.at < TOP_CACHE_MAX_MS) return hit.value;
  const value = readTop(db, store, currency);
  cache.set(currency.currencyId, { key, at: now, value });
  value.catch(() => {
    if (cache.get(currency.currencyId)?.value === value) cache.delete(currency.currencyId);
  });
  return value;
}

async function readTop(db: Db, store: LeaderboardStore, currency: CurrencyRow): Promise<Top> {
  const w = await store.read(db, currency.currencyId, TOP + 1, null, 0);
  const entries = await named(db, w.top);
  const leaders = entries.slice(0, TOP).map((e, i) => toLeader(e, i + 1, currency));
  return {
    entries,
    visitor: { leaders, position: null, balance: null, around: [], message: topMessage(leaders.length, currency) },
  };
}

/** `entries` with the nickname everyone else sees (private members `Anonymous`), read now by primary key. */
async function named(db: Db, entries: RankEntry[]): Promise<ShownEntry[]> {
  if (entries.length === 0) return [];
  const rows = await findShownMembers(
    db,
    entries.map((e) => e.userId),
  );
  const shown = new Map(rows.map((m) => [m.id, m]));
  return entries.map((e) => {
    const m = shown.get(e.userId);
    return { ...e, nickname: !m || m.is_anonymous ? 'Anonymous' : m.nickname };
  });
}

function toLeader(e: ShownEntry, rank: number, currency: CurrencyRow): Leader {
  return { rank, nickname: e.nickname, amount: formatAtPrecision(e.amount, currency.precision) };
}

function topMessage(shown: number, currency: CurrencyRow): string {
  return shown === 0 ? `No ${currency.ticker} holders yet` : `Top ${shown} ${currency.ticker} holders`;
}

/** A member's answer: `top` with their own place put in it, and their neighbours read from the store. */
async function answer(
  db: Db,
  store: LeaderboardStore,
  currency: CurrencyRow,
  viewer: AuthUser,
  holding: { amount: string; ranked: boolean; nickname: string } | null,
  top: Promise<Top>,
): Promise<LeaderboardResponse> {
  const viewerId = holding ? viewer.id : null;
  const at: (ShownEntry & RankEntry) | null =
    viewerId && holding?.ranked
      ? { userId: viewerId, amount: fromNumeric(holding.amount), nickname: holding.nickname }
      : null;
  // One more neighbour than shown on each side: the viewer's own kept entry may be among them and is left out.
  const [{ entries, visitor }, w] = await Promise.all([
    top,
    store.read(db, currency.currencyId, 0, viewerId ? { userId: viewerId, at } : null, AROUND + 1),
  ]);
  const others = <T extends RankEntry>(list: T[]) => (viewerId ? list.filter((e) => e.userId !== viewerId) : list);

  const leaderEntries = others(entries);
  const found = at ? leaderEntries.findIndex((e) => ranksAhead(at, e)) : -1;
  const insertAt = found === -1 ? leaderEntries.length : found;
  // Most members are neither in the kept top nor about to enter it: their leaders are everyone's.
  const leaders =
    leaderEntries.length === entries.length && (!at || insertAt >= TOP)
      ? visitor.leaders
      : leaderEntries
          .toSpliced(insertAt, 0, ...(at ? [at] : []))
          .slice(0, TOP)
          .map((e, i) => toLeader(e, i + 1, currency));
  const keptAhead = w.kept !== null && at !== null && w.kept > at.amount ? 1 : 0;
  const position = at ? w.ahead - keptAhead + 1 : null;
  const ahead = others(w.before).slice(0, AROUND).reverse();
  const near = await named(db, [...ahead, ...others(w.after).slice(0, AROUND)]);
  const before = near.slice(0, ahead.length);
  const after = near.slice(ahead.length);
  const around =
    at && position !== null
      ? [
          ...before.map((e, i) => toLeader(e, position - before.length + i, currency)),
          toLeader(at, position, currency),
          ...after.map((e, i) => toLeader(e, position + 1 + i, currency)),
        ]
      : [];
  return {
    leaders,
    position,
    balance: at ? formatAtPrecision(at.amount, currency.precision) : null,
    around,
    message: topMessage(leaders.length, currency),
  };
}
