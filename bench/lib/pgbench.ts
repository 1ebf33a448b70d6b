/** pgbench TPC-B on its own database: the yardstick every API figure is divided by (DESIGN §9). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type CpuSplit, measureCpu } from './cpu.ts';
import { type PgTarget, pgArgs, recreateDatabase } from './postgres.ts';

const run = promisify(execFile);

export interface PgbenchOptions {
  database: string;
  /** Scale factor: at least the client count, so branch rows are not one hot spot per client. */
  scale: number;
  clients: number;
  threads: number;
  durationS: number;
  /** Run TPC-B with `synchronous_commit=off` (its sessions commit without waiting for the WAL flush). */
  asyncCommit?: boolean;
}

export interface PgbenchResult {
  tps: number;
  latencyMs: number | null;
  transactions: number | null;
  failed: number | null;
  /** Where the CPU went while it ran (`loadgen` = the pgbench client). */
  cpu: CpuSplit | null;
}

/** Parses pgbench's summary: `tps = N (without initial connection time)` and friends. */
export function parsePgbench(output: string): Omit<PgbenchResult, 'cpu'> {
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
  if (!tps?.[1]) throw new Error(`pgbench printed no tps:\n${output}`);
  const num = (re: RegExp) => {
    const m = re.exec(output);
    return m?.[1] ? Number(m[1]) : null;
  };
  return {
    tps: Number(tps[1]),
    latencyMs: num(/latency average = ([\d.]+) ms/),
    transactions: num(/number of transactions actually processed: (\d+)/),
    failed: num(/number of failed transactions: (\d+)/),
  };
}

/** Recreates `opts.database`, initialises it at `opts.scale`, then runs TPC-B and returns its figures. */
export async function runPgbench(pg: PgTarget, opts: PgbenchOptions): Promise<PgbenchResult> {
  const bin = process.env.BENCH_PGBENCH ?? 'pgbench';
  await recreateDatabase(pg, opts.database);
  await run(bin, [...pgArgs(pg), '-i', '-q', '-s', String(opts.scale), opts.database], { maxBuffer: 16 * 1024 * 1024 });
  // A checkpoint now keeps the one pgbench -i triggers out of the measured interval.
  await run(process.env.BENCH_PSQL ?? 'psql', [...pgArgs(pg), '-d', opts.database, '-X', '-q', '-c', 'CHECKPOINT']);
  const stopCpu = measureCpu(0, opts.database);
  const { stdout, stderr } = await run(
    bin,
    [
      ...pgArgs(pg),
      '-c',
      String(opts.clients),
      '-j',
      String(opts.threads),
      '-T',
      String(opts.durationS),
      opts.database,
    ],
    {
      maxBuffer: 16 * 1024 * 1024,
      ...(opts.asyncCommit
        ? { env: { ...process.env, PGOPTIONS: `${process.env.PGOPTIONS ?? ''} -c synchronous_commit=off`.trim() } }
        : {}),
    },
  );
  const cpu = stopCpu();
  return { ...parsePgbench(`${stdout}\n${stderr}`), cpu };
}
