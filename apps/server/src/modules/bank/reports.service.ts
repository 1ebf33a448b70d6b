/** The bank's reports (SPEC §3, §7 Bank; DESIGN §4): ledger histories, currency stats, supply history, the audit. */
import {
  type AuditCheck,
  type AuditResponse,
  CIRCULATING_ADD,
  CIRCULATING_SUBTRACT,
  type CurrencyStatsEntry,
  type CurrencyStatsQuery,
  formatAtPrecision,
  NEGATIVE_STAT_CATEGORIES,
  type SupplyHistoryQuery,
  type SupplyHistoryResponse,
  type TransactionsQuery,
  type TransactionsResponse,
} from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import type { KeptTotals } from '../../lib/kept-totals.ts';
import { countOrphanExchangeRows } from '../exchange/exchange.public.ts';
import { takeAndStoreCheck, takeCheck } from './audit.check.ts';
import {
  type ConservationCheck,
  compareBalances,
  compareRollup,
  findCheckInputs,
  findTripwires,
  storeCheck,
  type Tripwires,
} from './audit.queries.ts';
import { requireCurrency } from './currencies.service.ts';
import { type ConservationRow, findCategoryTotals, findSupplyHistory } from './reports.queries.ts';
import { clearBackdated, ledgerCounters, recordAuditBaseline } from './rollup.queries.ts';
import { findTransactions } from './transactions-list.queries.ts';

/**
 * A page of ledger rows, newest first: the member's own (`ownerId`) or everyone's (admin, no owner).
 * Returns `{txs, total, totalCapped, message}` (DESIGN §3; `totalCapped`: issue 19, more match than `total`).
 * `totals`: kept totals by account (`startMemberTotals`) for a list whose rows all name one account (a
 * member's own history; the admin's list filtered by a nickname), so a page view does not count that
 * account's rows again until it changes.
 */
export async function listTransactions(
  db: Db,
  ownerId: string | undefined,
  q: TransactionsQuery,
  totals?: KeptTotals,
): Promise<TransactionsResponse> {
  const { paging, ...filters } = q;
  // The total depends on the filters and on where the page starts (the count's bound moves with it).
  // Whose list it is is part of the key: a member's own history and the admin's list by their nickname
  // keep separate totals under the one account.
  const key = JSON.stringify(
    { ...filters, own: ownerId !== undefined, offset: (paging.page - 1) * paging.limit },
    (_k, v) => (typeof v === 'bigint' ? v.toString() : v),
  );
  const { txs, total, totalCapped } = await findTransactions(db, { ...q, ownerId, ...paging }, (count, party) =>
    party && totals ? totals.total(party, key, count) : count(),
  );
  return { txs, total, totalCapped, message: `Got ${txs.length} transactions` };
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
  const rows = await findSupplyHistory(db, currency.currencyId, q.interval, q.limit ?? 200, {
    add: CIRCULATING_ADD,
    subtract: CIRCULATING_SUBTRACT,
    negative: NEGATIVE_STAT_CATEGORIES,
  });
  const points = rows.map((r) => ({
    time: r.time.toISOString(),
    supply: formatAtPrecision(r.supply, currency.precision),
    circulating: formatAtPrecision(r.circulating, currency.precision),
  }));
  return { points, message: `Got ${points.length} ${currency.ticker} supply points` };
}

/** One conservation row as the wire shows it (DESIGN §4). */
function conservationEntry(r: ConservationRow): AuditResponse['currencies'][number] {
  const difference = r.balances + r.escrow - (r.issued - r.removed);
  const text = (a: bigint) => formatAtPrecision(a, r.precision);
  return {
    currencyId: r.currencyId,
    ticker: r.ticker,
    balances: text(r.balances),
    escrow: text(r.escrow),
    issued: text(r.issued),
    removed: text(r.removed),
    difference: text(difference),
    negativeBalances: r.negative,
    ok: difference === 0n && r.negative === 0,
  };
}

/** The append-only triggers' check: both present and firing. */
function triggersCheck(t: Tripwires['triggers']): AuditCheck {
  const off = t.filter((x) => !x.enabled).map((x) => x.name);
  const ok = t.length >= 2 && off.length === 0;
  return {
    name: 'append-only triggers',
    ok,
    detail: ok
      ? 'The ledger refuses UPDATE, DELETE and TRUNCATE'
      : off.length > 0
        ? `Disabled: ${off.join(', ')}`
        : 'A trigger of migration 0005_ledger_append_only is missing',
  };
}

/**
 * The incremental audit's tripwires (issue 19 §2): a ledger row changed or removed since the last full
 * recount that found the rollup equal to the ledger (the table's update/delete counters moved, or were
 * reset with the statistics), the ledger's storage replaced (TRUNCATE, VACUUM FULL, CLUSTER), a row
 * inserted with a time below the rollup's watermark (found by the job in the blocks written since its
 * last tick).
 */
function tripwireChecks(t: Tripwires): AuditCheck[] {
  const b = t.baseline;
  const since = b ? ` since the last full recount (${b.recountedAt.toISOString()})` : '';
  if (!b) {
    return [
      triggersCheck(t.triggers),
      { name: 'ledger changes', ok: true, detail: 'No baseline yet: the rollup is being built' },
    ];
  }
  const upd = t.now.tupUpd - b.tupUpd;
  const del = t.now.tupDel - b.tupDel;
  const reset = (t.now.statsReset?.getTime() ?? null) !== (b.statsReset?.getTime() ?? null) || upd < 0 || del < 0;
  return [
    triggersCheck(t.triggers),
    {
      name: 'ledger changes',
      ok: upd === 0 && del === 0 && !reset,
      detail: reset
        ? `The statistics were reset${since}: changes cannot be ruled out, run the full recount`
        : upd === 0 && del === 0
          ? `No ledger row updated or deleted${since}`
          : `${upd} ledger rows updated and ${del} deleted${since}: run the full recount`,
    },
    {
      name: 'ledger storage',
      ok: t.now.filenode === b.filenode,
      detail:
        t.now.filenode === b.filenode
          ? `The ledger's storage is unchanged${since}`
          : `The ledger's storage was replaced (TRUNCATE, VACUUM FULL or CLUSTER)${since}: run the full recount`,
    },
    {
      name: 'backdated rows',
      ok: t.backdated === 0,
      detail:
        t.backdated === 0
          ? 'No ledger row was stored with a time below the rollup watermark'
          : `${t.backdated} ledger rows were stored with a time below the rollup watermark (inserted backdated or rewritten; first: ${t.backdatedId}): run the full recount`,
    },
  ];
}

/**
 * DESIGN §4 conservation check per currency: balances + escrow = issued - removed, and no negative
 * balance; `ok` is true only when every currency and every check passes (issue 19 §2).
 * - Incremental (default): the latest stored conservation check (`latestCheck`: taken at one snapshot by
 *   the audit-check job every ~30 s, the ledger's sums from the rollup up to its checkpoint plus the rows
 *   after it, against one pass over the balances), used while no posting happened since and it was
 *   clean, else one taken now; `checkedAt` says when, and the message how old a stored one is. And the
 *   tripwires (`tripwireChecks`, read now), which find a ledger row changed, removed or backdated
 *   without scanning the ledger. A balance changed without a ledger row shows from the next check on.
 * - `full`: recounts the whole ledger (the exact scan), compares every bucket of the rollup with it (a
 *   mismatch fails the check `rollup`) and every balance with its own rows (check `balances`: money
 *   moved between members without a row, which conservation cannot see) and every exchange order and trade
 *   with the rows it names (check `exchange`: its tables have no foreign keys), in one snapshot. When they match, the tripwires' baseline is
 *   taken afresh (the counters read at its start) and the backdated rows it saw are cleared, so a
 *   reported change clears once a recount vouches for the ledger. Its conservation figures are stored as
 *   the latest check.
 */
export async function audit(db: Db, opts: { full?: boolean } = {}): Promise<AuditResponse> {
  const result = opts.full
    ? await withTransaction(
        db,
        async (tx) => {
          const counters = await ledgerCounters(tx);
          const { rows, check } = await takeCheck(tx, 'full');
          const cmp = await compareRollup(tx);
          const bal = await compareBalances(tx);
          const orphans = await countOrphanExchangeRows(tx);
          const t = await findTripwires(tx);
          const first = cmp.sample[0];
          const checks: AuditCheck[] = [
            triggersCheck(t.triggers),
            {
              name: 'rollup',
              ok: cmp.mismatches === 0,
              detail: !cmp.built
                ? 'The rollup is not built yet'
                : cmp.mismatches === 0
                  ? 'The rollup equals the ledger in every bucket'
                  : `${cmp.mismatches} rollup buckets differ from the ledger (first: ${first?.grain} ${first?.bucket.toISOString()} currency ${first?.currencyId} category ${first?.category}: kept ${first?.keptCount ?? 0} rows, ${first?.keptTotal ?? 0}; ledger ${first?.ledgerCount ?? 0} rows, ${first?.ledgerTotal ?? 0})`,
            },
            {
              name: 'balances',
              ok: bal.mismatches === 0,
              detail:
                bal.mismatches === 0
                  ? 'Every balance equals its ledger rows'
                  : `${bal.mismatches} balances differ from their ledger rows (first: member ${bal.first?.userId} currency ${bal.first?.currencyId}: balance ${bal.first?.balance}, ledger ${bal.first?.ledger})`,
            },
            {
              name: 'exchange',
              ok: orphans.orders === 0 && orphans.trades === 0,
              detail:
                orphans.orders === 0 && orphans.trades === 0
                  ? 'Every order names its pair and member, every trade its pair and orders'
                  : `${orphans.orders} references of orders and ${orphans.trades} of trades name a pair, member or order that does not exist`,
            },
          ];
          const clean = cmp.built && cmp.mismatches === 0;
          if (clean) await recordAuditBaseline(tx, counters);
          return {
            mode: 'full' as const,
            rows,
            checks,
            watermark: t.watermark,
            vouched: clean ? t.backdated : 0,
            check,
            ageSeconds: null,
          };
        },
        { isolationLevel: 'repeatable read' },
      )
    : await (async () => {
        const t = await findTripwires(db);
        const { check, rows, ageSeconds } = await latestCheck(db, t.watermark);
        return {
          mode: 'incremental' as const,
          rows,
          checks: tripwireChecks(t),
          watermark: t.watermark,
          vouched: 0,
          check,
          ageSeconds,
        };
      })();
  // The full recount's conservation is a check like the job's (stored after its snapshot's transaction).
  if (result.mode === 'full') await storeCheck(db, result.check);
  // The rows the job found stored below its watermark are in the ledger the recount found equal to the
  // rollup: they are vouched for (outside the snapshot's transaction, which the job's state updates would
  // fail; rows found since stay counted).
  if (result.mode === 'full' && result.vouched > 0) await clearBackdated(db, result.vouched);
  const currencies = result.rows.map(conservationEntry);
  const balanced = currencies.every((c) => c.ok);
  const ok = balanced && result.checks.every((c) => c.ok);
  const failed = result.checks.filter((c) => !c.ok).map((c) => c.name);
  const verdict = ok
    ? 'Ledger balanced'
    : balanced
      ? `Ledger NOT balanced: check ${failed.join(', ')}`
      : 'Ledger NOT balanced';
  const checkedAt = result.check.checkedAt.toISOString();
  return {
    ok,
    currencies,
    message:
      result.ageSeconds === null
        ? verdict
        : `${verdict} (balances checked ${Math.round(result.ageSeconds)} s ago, at ${checkedAt})`,
    mode: result.mode,
    checkpoint: result.watermark?.toISOString() ?? null,
    checks: result.checks,
    checkedAt,
  };
}

/** How old a stored check may be before the audit computes one itself (the job is not running). */
export const STORED_CHECK_MAX_AGE_S = 300;

/**
 * The conservation figures the incremental audit reports: the latest stored check (`audit_check`, kept
 * by the audit-check job) when it is trustworthy now, else a check taken now (and stored). Trusted when
 * it is at most `STORED_CHECK_MAX_AGE_S` old, every currency was clean in it, the currencies are the
 * same, and the ledger holds as many rows as its snapshot did: every posting adds ledger rows with its
 * balance changes in one transaction, and rows are never removed (the tripwires report it if they are),
 * so the same count means no posting since and the check's figures are those of now. What the stored
 * check cannot see until the next one is a balance changed without a ledger row (tampering): the job's
 * next check (≤ 30 s) finds it, the full recount at once. Returns `ageSeconds` null when taken now.
 * One statement, O(currencies) and one index range (the rollup's tail), when trusted. `watermark`: the
 * rollup's, read before.
 */
async function latestCheck(
  db: Db,
  watermark: Date | null,
): Promise<{ check: ConservationCheck; rows: ConservationRow[]; ageSeconds: number | null }> {
  const { stored, labels, ledgerRows } = await findCheckInputs(db, watermark);
  if (stored && stored.ageSeconds <= STORED_CHECK_MAX_AGE_S) {
    const { check } = stored;
    const byId = new Map(check.currencies.map((c) => [c.currencyId, c]));
    const sameCurrencies = labels.length === byId.size && labels.every((l) => byId.has(l.currencyId));
    const clean = check.currencies.every(
      (c) => c.negative === 0 && c.balances + c.escrow - (c.issued - c.removed) === 0n,
    );
    if (sameCurrencies && clean && ledgerRows === check.ledgerRows) {
      const rows = labels.map((l) => ({
        ...l,
        ...(byId.get(l.currencyId) as ConservationCheck['currencies'][number]),
      }));
      return { check, rows, ageSeconds: Math.max(0, stored.ageSeconds) };
    }
  }
  const check = await liveCheck(db);
  const byId = new Map(check.currencies.map((c) => [c.currencyId, c]));
  const rows = labels
    .filter((l) => byId.has(l.currencyId))
    .map((l) => ({ ...l, ...(byId.get(l.currencyId) as ConservationCheck['currencies'][number]) }));
  return { check, rows, ageSeconds: null };
}

/** Per database handle: the live check running and the one queued behind it. */
const flights = new WeakMap<
  Db,
  { running: Promise<ConservationCheck> | null; next: Promise<ConservationCheck> | null }
>();

/**
 * A check taken after this call began (so it sees every posting committed before), shared by the
 * requests that wait for one at the same time: while one runs, later callers share the next one, which
 * starts when it ends. At most two passes over `balances` per process at once, however many admins ask.
 */
function liveCheck(db: Db): Promise<ConservationCheck> {
  let flight = flights.get(db);
  if (!flight) {
    flight = { running: null, next: null };
    flights.set(db, flight);
  }
  const f = flight;
  const launch = (): Promise<ConservationCheck> => {
    const p = takeAndStoreCheck(db);
    f.running = p;
    const clear = () => {
      if (f.running === p) f.running = null;
    };
    p.then(clear, clear);
    return p;
  };
  if (!f.running) return launch();
  if (!f.next) {
    f.next = f.running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        f.next = null;
        return launch();
      });
  }
  return f.next;
}
