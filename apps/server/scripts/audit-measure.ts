/**
 * Times the audit's stored conservation check on a big database (run by hand, read-only but
 * for `audit_check`): `DATABASE_URL=postgres://…/starlight_scale node apps/server/scripts/audit-measure.ts`.
 * Prints the check's own time (the job's tick), the incremental audit answered from the stored check
 * (one at a time, then CONCURRENCY at once; how many were answered from it: a posting since the check
 * makes the audit take one live), the reads of an answer from the stored check alone (tripwires and check
 * inputs, CONCURRENCY at once), and the audit computing the check live (no trusted check).
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.ts';
import { tickAuditCheck } from '../src/modules/reports/conservation.check.ts';
import { findCheckInputs, findTripwires } from '../src/modules/reports/conservation.queries.ts';
import { audit } from '../src/modules/reports/conservation.service.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const concurrency = Number(process.env.CONCURRENCY ?? 32);
const database = await openDatabase({ databaseUrl: url, dataDir: '/tmp', poolSize: 20 });
const db = database.db;

function report(label: string, ms: number[]): void {
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]?.toFixed(1) ?? '-';
  console.log(
    `${label.padEnd(48)} p50 ${at(0.5).padStart(8)} ms   p99 ${at(0.99).padStart(8)} ms  (${ms.length} runs)`,
  );
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const checks: number[] = [];
for (let i = 0; i < 3; i++) checks.push(await timed(() => tickAuditCheck(db, { wait: true })));
report('audit-check job tick (pass over balances)', checks);

const first = await audit(db);
console.log('incremental audit:', first.ok, first.message);
let fromStored = 0;
const answer = async () => {
  if ((await audit(db)).message.includes('checked')) fromStored++;
};
const one: number[] = [];
for (let i = 0; i < 50; i++) one.push(await timed(answer));
report('incremental audit, 1 at a time', one);
console.log(`  answered from the stored check: ${fromStored} of 50`);

fromStored = 0;
const many: number[] = [];
let t0 = performance.now();
while (performance.now() - t0 < 5000) {
  const batch = await Promise.all(Array.from({ length: concurrency }, () => timed(answer)));
  many.push(...batch);
}
report(`incremental audit, ${concurrency} at once`, many);
console.log(`  answered from the stored check: ${fromStored} of ${many.length}`);

const reads: number[] = [];
t0 = performance.now();
while (performance.now() - t0 < 5000) {
  const batch = await Promise.all(
    Array.from({ length: concurrency }, () =>
      timed(async () => {
        const t = await findTripwires(db);
        await findCheckInputs(db, t.watermark);
      }),
    ),
  );
  reads.push(...batch);
}
report(`stored-check answer's reads, ${concurrency} at once`, reads);

const live: number[] = [];
for (let i = 0; i < 3; i++) {
  await db.execute(sql`UPDATE audit_check SET checked_at = checked_at - interval '1 hour' WHERE id = 1`);
  live.push(await timed(() => audit(db)));
}
report('audit computing the check live (none trusted)', live);
await tickAuditCheck(db, { wait: true });
await database.close();
