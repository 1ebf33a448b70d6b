/**
 * The ledger's conservation audit (DESIGN §4): per currency, balances plus escrow
 * equal issued minus removed, with the tamper tripwires, from the stored check or a full recount.
 */
import { type AuditCheck, type AuditResponse, formatAtPrecision } from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { countOrphanExchangeRows } from '../exchange/exchange.public.ts';
import { takeAndStoreCheck, takeCheck } from './conservation.check.ts';
import {
  type ConservationCheck,
  compareBalances,
  compareRollup,
  findCheckInputs,
  findTripwires,
  storeCheck,
  type Tripwires,
} from './conservation.queries.ts';
import type { ConservationRow } from './reports.queries.ts';
import { clearBackdated, ledgerCounters, recordAuditBaseline } from './rollup.queries.ts';

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
 * The incremental audit's tripwires: a ledger row changed or removed since the last full
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
 * balance; `ok` is true only when every currency and every check passes.
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
