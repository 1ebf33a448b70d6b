/**
 * The stored conservation check (for the audit): the one pass over `balances` the audit needs
 * (sum per currency and negative count) runs in a background job, one replica at a time every ~30 s,
 * instead of in every admin's request. Each check is taken at ONE snapshot (a REPEATABLE READ
 * transaction): the balances, the rollup's all-time totals plus the ledger rows above its watermark, and
 * the ledger's row count; the result goes to `audit_check`, which `audit()` answers from.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { type PeriodicJob, startPeriodic } from '../../lib/periodic.ts';
import { type ConservationCheck, ledgerRowCount, storeCheck } from './conservation.queries.ts';
import { type ConservationRow, findConservation } from './reports.queries.ts';

const JOB = 'audit-check';

/**
 * Takes the conservation check in `tx`, which must be a REPEATABLE READ transaction (one snapshot for
 * every statement): `kept` reads the ledger's totals from the rollup plus its tail, `full` scans the
 * ledger. Returns the check and the rows as `findConservation` gives them. One pass over `balances`.
 */
export async function takeCheck(
  tx: DbOrTx,
  mode: 'kept' | 'full',
): Promise<{ check: ConservationCheck; rows: ConservationRow[] }> {
  // The first statement fixes the snapshot; now() is its transaction's start, at or before it.
  const head = await tx.execute<{ at: string | Date; w: string | Date | null }>(
    sql`SELECT now() AS at, (SELECT watermark FROM ledger_rollup_state WHERE id = 1) AS w`,
  );
  const rows = await findConservation(tx, mode);
  const ledgerRows = await ledgerRowCount(tx);
  const h = head.rows[0];
  return {
    rows,
    check: {
      checkedAt: new Date(h?.at ?? Date.now()),
      watermark: h?.w ? new Date(h.w) : null,
      ledgerRows,
      full: mode === 'full',
      currencies: rows.map((r) => ({
        currencyId: r.currencyId,
        balances: r.balances,
        issued: r.issued,
        removed: r.removed,
        escrow: r.escrow,
        negative: r.negative,
      })),
    },
  };
}

/**
 * Takes a check at one snapshot and stores it (outside the snapshot's transaction: a concurrent store
 * would fail it; the later snapshot wins). Returns the check.
 */
export async function takeAndStoreCheck(db: Db): Promise<ConservationCheck> {
  const { check } = await withTransaction(db, (tx) => takeCheck(tx, 'kept'), { isolationLevel: 'repeatable read' });
  await storeCheck(db, check);
  return check;
}

/**
 * One tick of the audit-check job: takes and stores a check while holding the job's advisory lock
 * (`pg_try_advisory_xact_lock`, so of several replicas one does it). Returns the check, or `undefined`
 * when another process holds the lock, unless `wait` (tests), which waits for it.
 */
export async function tickAuditCheck(db: Db, opts: { wait?: boolean } = {}): Promise<ConservationCheck | undefined> {
  const check = await withTransaction(
    db,
    async (tx) => {
      // The lock is the snapshot's first statement: the check sees what was committed when it got it.
      if (opts.wait) {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`job:${JOB}`}))`);
      } else {
        const res = await tx.execute<{ ok: boolean }>(
          sql`SELECT pg_try_advisory_xact_lock(hashtext(${`job:${JOB}`})) AS ok`,
        );
        if (!res.rows[0]?.ok) return undefined;
      }
      return (await takeCheck(tx, 'kept')).check;
    },
    { isolationLevel: 'repeatable read' },
  );
  if (check) await storeCheck(db, check);
  return check;
}

/** Starts the audit-check job (every `everyMs`, 30 s by default) with a first check at once; stop it on close. */
export function startConservationCheck(db: Db, log: FastifyBaseLogger, everyMs = 30_000): PeriodicJob {
  const job = startPeriodic({
    name: JOB,
    everyMs,
    log,
    tick: async () => {
      await tickAuditCheck(db);
    },
  });
  void job.runNow();
  return job;
}
