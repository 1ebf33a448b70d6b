/** The ledger's reports (SPEC §3, §7 Bank; DESIGN §4): ledger histories, currency stats, supply history. */
import {
  CIRCULATING_ADD,
  CIRCULATING_SUBTRACT,
  type CurrencyStatsEntry,
  type CurrencyStatsQuery,
  formatAtPrecision,
  NEGATIVE_STAT_CATEGORIES,
  type SupplyHistoriesQuery,
  type SupplyHistoriesResponse,
  type SupplyHistoryQuery,
  type SupplyHistoryResponse,
  type TransactionsQuery,
  type TransactionsResponse,
} from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import type { KeptTotals } from '../../lib/kept-totals.ts';
import { findCurrencies } from '../bank/bank.public.ts';
import { requireCurrency } from '../bank/currencies.service.ts';
import { findCategoryTotals, findSupplyHistories, findSupplyHistory, type SupplyRow } from './reports.queries.ts';
import { findTransactions } from './transactions-list.queries.ts';

/**
 * A page of ledger rows, newest first: the member's own (`ownerId`) or everyone's (admin, no owner).
 * Returns `{txs, total, totalCapped, message}` (DESIGN §3; `totalCapped`: more match than `total`), the
 * total the same on every page of a list; with `seekDate`, the page holding that day's newest row and
 * its number (`page`). `totals`: kept totals by account (`startMemberTotals`) for a list whose rows all
 * name one account (a member's own history; the admin's list filtered by a nickname), so a page view does
 * not count that account's rows again until it changes, nor a seek the rows after its day.
 */
export async function listTransactions(
  db: Db,
  ownerId: string | undefined,
  q: TransactionsQuery,
  totals?: KeptTotals,
): Promise<TransactionsResponse> {
  const { paging, seekDate, ...filters } = q;
  // The total depends on the filters only. Whose list it is is part of the key: a member's own history
  // and the admin's list by their nickname keep separate totals under the one account.
  const key = JSON.stringify({ ...filters, own: ownerId !== undefined }, (_k, v) =>
    typeof v === 'bigint' ? v.toString() : v,
  );
  const { txs, total, totalCapped, page } = await findTransactions(
    db,
    { ...filters, seekDate, ownerId, ...paging },
    (count, party, part = '') => (party && totals ? totals.total(party, `${key}${part}`, count) : count()),
  );
  const sought = seekDate === undefined ? {} : { page };
  return { txs, total, totalCapped, ...sought, message: `Got ${txs.length} transactions` };
}

/**
 * Admin currency stats (DESIGN §4): per currency, each category's total (burns, forge burns and opened
 * chips negative) and count in the range, the signed sum, and circulating per SPEC §3, each a decimal
 * string at the currency's precision.
 */
export async function currencyStats(db: Db, q: CurrencyStatsQuery): Promise<CurrencyStatsEntry[]> {
  const rows = await findCategoryTotals(db, q);
  const byCurrency = new Map<number, CurrencyStatsEntry & { sum: bigint; circ: bigint; precision: number }>();
  for (const r of rows) {
    const signed = NEGATIVE_STAT_CATEGORIES.includes(r.category) ? -r.total : r.total;
    const entry = byCurrency.get(r.currencyId) ?? {
      _id: r.currencyId,
      categories: [],
      totals: '0',
      circulating: '0',
      sum: 0n,
      circ: 0n,
      precision: r.precision,
    };
    entry.categories.push({ category: r.category, total: formatAtPrecision(signed, r.precision), count: r.count });
    entry.sum += signed;
    if (CIRCULATING_ADD.includes(r.category)) entry.circ += signed;
    if (CIRCULATING_SUBTRACT.includes(r.category)) entry.circ -= signed;
    byCurrency.set(r.currencyId, entry);
  }
  return [...byCurrency.values()].map(({ sum, circ, precision, ...e }) => ({
    ...e,
    totals: formatAtPrecision(sum, precision),
    circulating: formatAtPrecision(circ, precision),
  }));
}

/**
 * A currency's supply and circulating over time (public, ours; the /analytics page): one point per
 * bucket of `interval` ('1h' or '1d', aligned to the epoch, UTC) for the last `limit` buckets, oldest
 * first, the bucket holding now last; default 200. Each point's `time` is the bucket's start, and its
 * amounts are decimal strings in currency units counting every ledger row before the bucket's end:
 * `supply` = issued - removed (DESIGN §4: equals balances + escrow, as the audit checks) and
 * `circulating` per SPEC §3, the same rule as `currencyStats` over all time. A bucket before any
 * activity shows 0. Throws NOT_FOUND for an unknown currency.
 */
export async function supplyHistory(db: Db, q: SupplyHistoryQuery): Promise<SupplyHistoryResponse> {
  const currency = await requireCurrency(db, q.currencyId);
  const rows = await findSupplyHistory(db, currency.currencyId, q.interval, q.limit ?? 200, SUPPLY_RULE);
  const points = supplyPoints(rows, currency.precision);
  return { points, message: `Got ${points.length} ${currency.ticker} supply points` };
}

const SUPPLY_RULE = { add: CIRCULATING_ADD, subtract: CIRCULATING_SUBTRACT, negative: NEGATIVE_STAT_CATEGORIES };

/** Rows of `findSupplyHistories` as the wire's points, amounts at `precision`. */
function supplyPoints(rows: readonly SupplyRow[], precision: number) {
  return rows.map((r) => ({
    time: r.time.toISOString(),
    supply: formatAtPrecision(r.supply, precision),
    circulating: formatAtPrecision(r.circulating, precision),
  }));
}

/**
 * Every currency's supply history (public, ours; the /analytics page's one call): `supplyHistory`'s
 * points for each currency, by currency id, in one statement over the rollup.
 */
export async function supplyHistories(db: Db, q: SupplyHistoriesQuery): Promise<SupplyHistoriesResponse> {
  const currencies = await findCurrencies(db);
  const ids = currencies.map((c) => Number(c.currencyId));
  const rows = await findSupplyHistories(db, ids, q.interval, q.limit ?? 200, SUPPLY_RULE);
  const histories = currencies.map((c) => ({
    currencyId: Number(c.currencyId),
    points: supplyPoints(rows.get(Number(c.currencyId)) ?? [], c.precision),
  }));
  return { histories, message: `Got ${histories.length} supply histories` };
}
