/**
 * What every benchmark case gets: the running server, an admin session, the pgbench yardstick of this
 * run, and `measure()`, which runs the HTTP load the same way for every case (checkpoint, warm-up,
 * measured run, CPU split, conservation audit).
 */
import type { RawRequest } from 'autocannon';
import type { Api } from './api.ts';
import { type CpuSplit, measureCpu } from './cpu.ts';
import { type LoadResult, runLoad } from './load.ts';
import { type PgTarget, psql } from './postgres.ts';
import { type Figures, round } from './results.ts';
import type { ServerHandle } from './server.ts';

export interface BenchSettings {
  connections: number;
  durationS: number;
  warmupS: number;
}

export interface BenchContext {
  settings: BenchSettings;
  server: ServerHandle;
  api: Api;
  adminNickname: string;
  adminToken: string;
  /** TPC-B transactions per second of this run (`pgbench_tps` in every line); 0 when pgbench was skipped. */
  pgbenchTps: number;
  /** Where the CPU went during pgbench (`loadgen` = the pgbench client). */
  pgbenchCpu: CpuSplit | null;
  pg: PgTarget;
  /** The server's database. */
  database: string;
  /**
   * What makes this run's names unique on a database that outlives it (`make bench-scale` writes into
   * the seeded one): appended to bench members' nickname prefixes, tickers, recipe and package names.
   * Empty for `make bench` (a fresh database each run). At most 4 characters, A-Z and 0-9.
   */
  tag: string;
  /** Progress for people (stderr; stdout carries only the JSON lines). */
  log(message: string): void;
  /**
   * Starts one more server on the same database, as a replica or a restart would (`make bench` only), its
   * health asked every `pollMs`.
   */
  startReplica?(pollMs: number): Promise<ServerHandle>;
}

export interface Measured extends LoadResult {
  /** 2xx answers including the warm-up's. */
  okWithWarmup: number;
  /**
   * Requests cut off in flight when a run's time was up (at most one per connection per run): the
   * server may still have completed them, so the database can show up to this many more.
   */
  cutOff: number;
  cpu: CpuSplit | null;
  auditOk: boolean;
}

/**
 * A benchmark suite: sets itself up on `ctx` once, then runs each of its `cases` that `selected`
 * lets through and reports one line of figures for each.
 */
export interface Suite {
  name: string;
  cases: readonly string[];
  /** False for a suite that needs no pgbench yardstick (the web case): a run of only such suites skips pgbench. */
  usesPgbench?: boolean;
  run(ctx: BenchContext, selected: (caseName: string) => boolean, report: (figures: Figures) => void): Promise<void>;
}

interface AuditBody {
  ok: boolean;
  message?: string;
}

/**
 * GET /api/bank/audit as the admin: true when conservation holds for every currency; false (logged) when
 * it does not or the audit itself fails, so the case's figures are still reported, marked.
 */
export async function auditOk(ctx: BenchContext): Promise<boolean> {
  let body: AuditBody;
  try {
    body = await ctx.api.get<AuditBody>('/api/bank/audit', ctx.adminToken);
  } catch (err) {
    ctx.log(`audit failed to answer: ${err instanceof Error ? err.message : String(err)}`);
    return false;
  }
  if (!body.ok) ctx.log(`audit failed: ${JSON.stringify(body)}`);
  return body.ok === true;
}

/**
 * Runs `request(n)` under load: a CHECKPOINT (so none lands in the window), `warmupS` unmeasured,
 * then `durationS` measured with the CPU split, then (once requests cut off in flight have settled)
 * the conservation audit.
 */
export async function measure(ctx: BenchContext, request: (n: number) => RawRequest): Promise<Measured> {
  const { connections, durationS, warmupS } = ctx.settings;
  await psql(ctx.pg, ctx.database, 'CHECKPOINT');
  let n = 0;
  const next = () => request(n++);
  const warmup =
    warmupS > 0 ? await runLoad({ url: ctx.server.url, connections, durationS: warmupS, request: next }) : null;
  const stopCpu = measureCpu(ctx.server.pid, ctx.database);
  const load = await runLoad({ url: ctx.server.url, connections, durationS, request: next });
  const cpu = stopCpu();
  await new Promise((resolve) => setTimeout(resolve, 500));
  return {
    ...load,
    okWithWarmup: load.ok + (warmup?.ok ?? 0),
    cutOff: connections * (warmup ? 2 : 1),
    cpu,
    auditOk: await auditOk(ctx),
  };
}

/** The standard figures of a throughput case: `<rateName>`, p50/p99, pgbench_tps, ratio, errors. */
export function throughputFigures(ctx: BenchContext, name: string, rateName: string, m: Measured): Figures {
  const other = Object.entries(m.statusCodes).filter(([code]) => !code.startsWith('2'));
  return {
    case: name,
    [rateName]: round(m.okPerSecond),
    p50_ms: m.p50Ms,
    p99_ms: m.p99Ms,
    pgbench_tps: round(ctx.pgbenchTps),
    ratio: round(m.okPerSecond / ctx.pgbenchTps, 3),
    errors: m.errors,
    non2xx: m.non2xx,
    ...(other.length > 0 ? { status_codes: Object.fromEntries(other) } : {}),
    audit_ok: m.auditOk,
    connections: ctx.settings.connections,
    duration_s: m.durationS,
    ...(m.cpu ? { cpu_pct: m.cpu } : {}),
    ...(ctx.pgbenchCpu ? { pgbench_cpu_pct: ctx.pgbenchCpu } : {}),
  };
}
