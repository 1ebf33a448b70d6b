/**
 * `make bench-export`: the admin's Tnx Logs CSV export (`GET /api/bank/alltransactions.csv`, DESIGN §11.6)
 * of the whole ledger of a `make scale-seed` database, read to its end by one client as a browser would
 * download it. Prints and keeps (bench/results/export_all_transactions.json) the rows and bytes, the time
 * to the first byte and to the end, rows per second, and the server's memory: resident before, the
 * highest resident seen every 100 ms while the file streamed, and the process's peak (VmHWM, start-up
 * included). A streamed export keeps the server's memory flat however many rows it writes.
 *
 * Settings (environment): SCALE_DATABASE_URL (postgres://postgres@127.0.0.1:5432/starlight_scale),
 * SCALE_PASSWORD (the seed's), BENCH_EXPORT_QUERY (the list's filters as a query string, default none:
 * every ledger row).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseUrl } from './lib/postgres.ts';
import { record, round } from './lib/results.ts';
import { peakMemoryMb } from './lib/scale.ts';
import { adminSession, parseDatabaseUrl, StopError, seededCommunity } from './lib/scale-db.ts';
import { startServer } from './lib/server.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

/** The resident memory of process `pid` in MB (VmRSS), null once it is gone. */
function residentMb(pid: number): number | null {
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : round(Number(kb) / 1024);
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const { pg, database } = parseDatabaseUrl(
    'SCALE_DATABASE_URL',
    process.env.SCALE_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/starlight_scale',
  );
  const seeded = await seededCommunity(pg, database);
  if (!seeded) throw new StopError(`${database} holds no community from make scale-seed: fill it first`);
  const server = await startServer({
    root,
    databaseUrl: databaseUrl(pg, database),
    adminNickname: seeded.admin.nickname,
    adminPassword: process.env.SCALE_PASSWORD || 'Scale-Passw0rd!',
    readyTimeoutS: 1800,
  });
  try {
    const token = await adminSession(pg, database, seeded.admin);
    const query = process.env.BENCH_EXPORT_QUERY ?? '';
    const url = `${server.url}/api/bank/alltransactions.csv${query ? `?${query}` : ''}`;
    const before = residentMb(server.pid);
    let highest = before ?? 0;
    const sampler = setInterval(() => {
      highest = Math.max(highest, residentMb(server.pid) ?? 0);
    }, 100);
    const started = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    let firstByteMs: number | null = null;
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body) {
      firstByteMs ??= performance.now() - started;
      bytes += chunk.byteLength;
      for (const b of chunk) if (b === 10) lines += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const rows = lines - 1;
    record(path.join(here, 'results'), {
      case: 'export_all_transactions',
      database,
      ledger_rows_estimate: seeded.ledgerRows,
      query,
      rows,
      mb: round(bytes / 1024 / 1024),
      first_byte_ms: round(firstByteMs ?? 0),
      seconds: round(seconds, 2),
      rows_per_s: Math.round(rows / seconds),
      server_rss_before_mb: before,
      server_rss_highest_mb: round(highest),
      server_peak_mb: peakMemoryMb(server.pid),
    });
  } finally {
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof StopError ? `bench-export: ${err.message}` : err);
  process.exit(err instanceof StopError ? 2 : 1);
});
