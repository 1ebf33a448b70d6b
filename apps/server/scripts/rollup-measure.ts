/**
 * Times the ledger rollup's readers and job on a big database (run by hand, read-only but
 * for the rollup's own tables): `DATABASE_URL=postgres://…/starlight_scale node apps/server/scripts/rollup-measure.ts`.
 * Builds the rollup when it is missing (or always with REBUILD=1), then prints the median and worst of a
 * few runs of currency stats, supply history, candles, the incremental and (unless FULL=0) full audits,
 * a tick, and with OLD=1 the full scans they replaced.
 */
import { CANDLE_INTERVALS } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.ts';
import { findCandles } from '../src/modules/exchange/candles.queries.ts';
import { audit } from '../src/modules/reports/conservation.service.ts';
import { currencyStats, supplyHistory } from '../src/modules/reports/reports.service.ts';
import { ledgerSums, rebuildLedgerRollup, tickLedgerRollup } from '../src/modules/reports/rollup.queries.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const database = await openDatabase({ databaseUrl: url, dataDir: '/tmp', poolSize: 4 });
const db = database.db;

async function time(label: string, fn: () => Promise<unknown>, runs = 5): Promise<void> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const med = ms[Math.floor(ms.length / 2)] ?? 0;
  console.log(
    `${label.padEnd(52)} median ${med.toFixed(1).padStart(8)} ms   max ${ms[ms.length - 1]?.toFixed(1).padStart(8)} ms  (${runs} runs)`,
  );
}

const counts = await db.execute<{ tx: string; bal: string; trades: string }>(sql`
  SELECT (SELECT reltuples::bigint FROM pg_class WHERE relname = 'bank_transactions') AS tx,
         (SELECT reltuples::bigint FROM pg_class WHERE relname = 'balances') AS bal,
         (SELECT reltuples::bigint FROM pg_class WHERE relname = 'exchange_trades') AS trades`);
console.log('rows (estimates):', counts.rows[0]);

const built = await db.execute(sql`SELECT 1 FROM ledger_rollup_state WHERE id = 1`);
if (built.rows.length === 0 || process.env.REBUILD === '1')
  await time('rebuildLedgerRollup', () => rebuildLedgerRollup(db), 1);
const size = await db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM ledger_rollup`);
console.log('rollup rows:', size.rows[0]?.n);

await time('tick (nothing new)', () => tickLedgerRollup(db, { wait: true }));
// The tick's aggregation over the newest 10,000 ledger rows, as after a busy 2 s (read only).
const from = await db.execute<{ at: string }>(
  sql`SELECT created_at::text AS at FROM bank_transactions ORDER BY created_at DESC OFFSET 9999 LIMIT 1`,
);
const at = from.rows[0]?.at ?? '-infinity';
await time('tick aggregation of the newest 10,000 rows', () =>
  db.execute(sql`SELECT date_bin('1 hour'::interval, created_at, TIMESTAMPTZ '1970-01-01 00:00:00+00'), currency_id,
                        category, ${ledgerSums()} FROM bank_transactions WHERE created_at >= ${at}::timestamptz GROUP BY 1, 2, 3`),
);

const busiest = await db.execute<{ c: number }>(
  sql`SELECT currency_id AS c FROM ledger_rollup WHERE grain = 'all' GROUP BY 1 ORDER BY sum(n) DESC LIMIT 1`,
);
const currencyId = Number(busiest.rows[0]?.c ?? 1);
const pair = await db.execute<{ p: string }>(
  sql`SELECT pair_id AS p FROM trade_candles WHERE width = '1d' GROUP BY 1 ORDER BY sum(n) DESC LIMIT 1`,
);
const pairId = pair.rows[0]?.p;
const day = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);

await time('currencyStats, no range', () => currencyStats(db, {}));
await time('currencyStats, 30 days', () => currencyStats(db, { startDate: day(30), endDate: day(0) }));
await time('currencyStats, 30 days, one currency', () =>
  currencyStats(db, { startDate: day(30), endDate: day(0), currencyId }),
);
await time('currencyStats, 2 years', () => currencyStats(db, { startDate: day(730), endDate: day(0) }));
for (const interval of ['1h', '1d'] as const) {
  for (const limit of [200, 366]) {
    await time(`supplyHistory ${interval} limit ${limit} (currency ${currencyId})`, () =>
      supplyHistory(db, { currencyId, interval, limit }),
    );
  }
}
if (pairId) {
  for (const interval of CANDLE_INTERVALS) {
    for (const limit of [200, 1000]) {
      await time(`candles ${interval} limit ${limit}`, () => findCandles(db, pairId, interval, limit));
    }
  }
}
await time('balances pass (sum, negatives per currency)', () =>
  db.execute(sql`SELECT currency_id, sum(amount), count(*) FILTER (WHERE amount < 0) FROM balances GROUP BY 1`),
);
await time('audit, incremental', () => audit(db));
const inc = await audit(db);
console.log('incremental audit ok:', inc.ok, inc.message);
if (process.env.FULL !== '0') {
  const t0 = performance.now();
  const full = await audit(db, { full: true });
  console.log(`audit, full recount: ${(performance.now() - t0).toFixed(0)} ms; ok: ${full.ok} ${full.message}`);
  console.log(JSON.stringify(full.checks));
}

if (process.env.OLD === '1') {
  await time(
    'OLD currencyStats scan, no range',
    () =>
      db.execute(
        sql`SELECT currency_id, category, sum(amount), count(*) FROM bank_transactions GROUP BY 1, 2 ORDER BY 1, 2`,
      ),
    1,
  );
  await time(
    'OLD supply history scan (one currency, all rows)',
    () => db.execute(sql`SELECT ${ledgerSums()} FROM bank_transactions WHERE currency_id = ${currencyId}`),
    1,
  );
  if (pairId) {
    await time(
      'OLD candles 1d scan',
      () =>
        db.execute(sql`SELECT date_bin('1 day'::interval, created_at, TIMESTAMPTZ '1970-01-01 00:00:00+00') AS b,
          (array_agg(price ORDER BY seq))[1], max(price), min(price), (array_agg(price ORDER BY seq DESC))[1], sum(amount)
          FROM exchange_trades WHERE pair_id = ${pairId} GROUP BY b ORDER BY b DESC LIMIT 200`),
      1,
    );
  }
}
await database.close();
