/**
 * `make bench` (DESIGN §9): starts the server on a fresh PostgreSQL database (with its default log level,
 * as users run it), then runs each suite's cases, each write suite right after a pgbench TPC-B on the same
 * PostgreSQL (its cases' `ratio` divide by that figure), and prints one JSON line of figures per case
 * (kept under bench/results/). Usage:
 * `node bench/run.ts [suite or case ...]`, e.g. `node bench/run.ts ledger`,
 * `node bench/run.ts transfer_untaxed` or `node bench/run.ts web` (default: everything; a run of only
 * the web case skips pgbench). The web case needs the built web app (`make bench` builds it).
 *
 * Cases: ledger (transfer_untaxed, transfer_taxed, transfer_untaxed_apikey), bank (mint, withdraw), exchange (orders_spread,
 * orders_hot_pair, orders_mixed_types: limit, market, IOC, FOK and post-only on one pair), forge (forge_start, forge_claim), checkout (webhook_completed), chips (chips_buy: one
 * synth chip bought per request; chips_open: one opened per request, each request's member holding chips
 * bought up front), market (market_buy: one open listing bought per request), signin (login_password, login_totp: a whole sign-in's latency, one at a time), web (first paint and bundle sizes) and
 * startup (milliseconds from `node` starting to a healthy server on the migrated database, five starts).
 *
 * Settings (environment): BENCH_CONNECTIONS (32), BENCH_DURATION (10 s), BENCH_WARMUP (2 s),
 * BENCH_PGBENCH_SCALE (the client count), BENCH_MEMBERS (200), BENCH_DB_POOL_SIZE and
 * BENCH_LOG_LEVEL (the server's DB_POOL_SIZE and LOG_LEVEL; default: the server's own defaults),
 * BENCH_SERVER_NODE_ARGS (extra node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`),
 * BENCH_CPU_PASS (1: the write cases run a second time with `synchronous_commit=off` on the server's
 * database and pgbench's, written beside the first as `ratio_cpu`, `p99_ms_cpu` and `pgbench_tps_cpu`;
 * 0 skips it), BENCH_DB (the server's database, starlight_bench), BENCH_PG_HOST / BENCH_PG_PORT / BENCH_PG_USER (127.0.0.1, 5432, postgres; a host starting with `/` is
 * a Unix socket directory, used by the server and pgbench alike).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bankSuite } from './cases/bank.ts';
import { BENCH_STRIPE_WEBHOOK_SECRET, checkoutSuite } from './cases/checkout.ts';
import { chipsSuite } from './cases/chips.ts';
import { exchangeSuite } from './cases/exchange.ts';
import { forgeSuite } from './cases/forge.ts';
import { ledgerSuite } from './cases/ledger.ts';
import { marketSuite } from './cases/market.ts';
import { signinSuite } from './cases/signin.ts';
import { startupSuite } from './cases/startup.ts';
import { webSuite } from './cases/web.ts';
import { api } from './lib/api.ts';
import type { BenchContext, Suite } from './lib/context.ts';
import { runPgbench } from './lib/pgbench.ts';
import { databaseUrl, pgTarget, psql, recreateDatabase } from './lib/postgres.ts';
import { type Figures, failedChecks, record, withCpuPass } from './lib/results.ts';
import { type ServerHandle, startServer } from './lib/server.ts';

/** Every suite, in the order they run. A new benchmark adds itself here. */
const SUITES: Suite[] = [
  ledgerSuite,
  bankSuite,
  exchangeSuite,
  forgeSuite,
  checkoutSuite,
  chipsSuite,
  marketSuite,
  signinSuite,
  webSuite,
  startupSuite,
];

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const resultsDir = path.join(here, 'results');

/** The server's database (BENCH_DB, so that two checkouts can bench side by side). */
const SERVER_DB = process.env.BENCH_DB || 'starlight_bench';
const PGBENCH_DB = 'starlight_pgbench';
const ADMIN = 'admin';
const ADMIN_PASSWORD = 'Bench-admin-9!';

const intEnv = (name: string, fallback: number) => {
  const v = process.env[name];
  const n = v === undefined || v === '' ? fallback : Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, not ${v}`);
  return n;
};

const log = (message: string) => console.error(`[bench] ${message}`);

/** What one pass of the suites needs: which cases, how hard, and whether commits wait for the disk. */
interface Pass {
  suites: Suite[];
  picks: (suite: Suite) => (caseName: string) => boolean;
  settings: BenchContext['settings'];
  scale: number;
  /**
   * `synchronous_commit=off` on both sides (`ratio_cpu`): the server's database and pgbench's
   * session commit without waiting for the WAL flush, which makes both CPU-bound, like a machine whose
   * disk flushes at once.
   */
  asyncCommit: boolean;
}

/**
 * One pass: recreates the server's database, starts the server, measures pgbench, runs the pass's suites
 * and hands each case's figures to `report`. Throws what a suite throws (the server is stopped).
 */
async function runPass(pass: Pass, report: (figures: Figures) => void): Promise<void> {
  const pg = pgTarget();
  const serverEnv: Record<string, string> = {};
  if (process.env.BENCH_LOG_LEVEL) serverEnv.LOG_LEVEL = process.env.BENCH_LOG_LEVEL;
  if (process.env.BENCH_DB_POOL_SIZE) serverEnv.DB_POOL_SIZE = process.env.BENCH_DB_POOL_SIZE;
  // Card payments through Stripe (the checkout case signs its events with this secret); no Stripe API is
  // called, so the SDK points at a closed local port.
  serverEnv.STRIPE_SECRET_KEY = 'sk_test_bench';
  serverEnv.STRIPE_WEBHOOK_SECRET = BENCH_STRIPE_WEBHOOK_SECRET;
  serverEnv.STRIPE_API_URL = 'http://127.0.0.1:9';

  log(`database ${SERVER_DB}: recreating, starting the server${pass.asyncCommit ? ' (synchronous_commit=off)' : ''}`);
  await recreateDatabase(pg, SERVER_DB);
  // A setting of the database: every connection the server opens takes it.
  if (pass.asyncCommit) await psql(pg, 'postgres', `ALTER DATABASE ${SERVER_DB} SET synchronous_commit = off`);
  let server: ServerHandle | undefined;
  try {
    const serverOptions = {
      root,
      databaseUrl: databaseUrl(pg, SERVER_DB),
      adminNickname: ADMIN,
      adminPassword: ADMIN_PASSWORD,
      env: serverEnv,
      nodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
    };
    server = await startServer(serverOptions);
    const client = api(server.url);
    const { token: adminToken } = await client.post<{ token: string }>('/api/user/login', {
      nickOrEmail: ADMIN,
      password: ADMIN_PASSWORD,
    });

    // pgbench TPC-B right before each suite that divides by it: the machine's rate drifts over a long run,
    // and one figure taken before every case would move every ratio with it.
    const pgbenchNow = async (suite: Suite): Promise<{ tps: number; cpu: BenchContext['pgbenchCpu'] }> => {
      const { connections, durationS } = pass.settings;
      log(`pgbench before ${suite.name}: TPC-B, scale ${pass.scale}, ${connections} clients, ${durationS} s`);
      const tpcb = await runPgbench(pg, {
        database: PGBENCH_DB,
        scale: pass.scale,
        clients: connections,
        threads: 2,
        durationS,
        asyncCommit: pass.asyncCommit,
      });
      log(`pgbench: ${tpcb.tps.toFixed(1)} tps, ${tpcb.latencyMs} ms average, cpu ${JSON.stringify(tpcb.cpu)}`);
      await psql(pg, 'postgres', `DROP DATABASE IF EXISTS ${PGBENCH_DB} WITH (FORCE)`);
      return tpcb;
    };

    for (const suite of pass.suites) {
      const pgbench = suite.usesPgbench !== false ? await pgbenchNow(suite) : { tps: 0, cpu: null };
      const ctx: BenchContext = {
        settings: pass.settings,
        server,
        api: client,
        adminNickname: ADMIN,
        adminToken,
        pgbenchTps: pgbench.tps,
        pgbenchCpu: pgbench.cpu,
        pg,
        database: SERVER_DB,
        tag: '',
        log,
        startReplica: (pollMs) => startServer({ ...serverOptions, pollMs }),
      };
      await suite.run(ctx, pass.picks(suite), report);
    }
  } finally {
    await server?.stop();
  }
}

async function main(): Promise<number> {
  const wanted = process.argv.slice(2);
  const known = SUITES.flatMap((s) => [s.name, ...s.cases]);
  const unknown = wanted.filter((w) => !known.includes(w));
  if (unknown.length > 0) throw new Error(`Unknown suite or case ${unknown.join(', ')} (have ${known.join(', ')})`);
  const picks = (suite: Suite) => (caseName: string) =>
    wanted.length === 0 || wanted.includes(suite.name) || wanted.includes(caseName);
  const suites = SUITES.filter((s) => s.cases.some(picks(s)));
  const settings = {
    connections: intEnv('BENCH_CONNECTIONS', 32),
    durationS: intEnv('BENCH_DURATION', 10),
    warmupS: intEnv('BENCH_WARMUP', 2),
  };
  const scale = Math.max(intEnv('BENCH_PGBENCH_SCALE', settings.connections), settings.connections);

  const started = Date.now();
  let failed = false;
  const check = (figures: Figures) => {
    const failures = failedChecks(figures);
    if (failures.length > 0) {
      failed = true;
      log(`${figures.case}: FAILED ${failures.join(', ')}`);
    }
  };
  const first = new Map<string, Figures>();
  await runPass({ suites, picks, settings, scale, asyncCommit: false }, (figures) => {
    record(resultsDir, figures);
    check(figures);
    first.set(figures.case, figures);
  });
  // The write cases once more, each beside its pgbench, with commits that do not wait for the disk.
  const writes = suites.filter((s) => s.usesPgbench !== false);
  if (writes.length > 0 && intEnv('BENCH_CPU_PASS', 1) === 1) {
    await runPass({ suites: writes, picks, settings, scale, asyncCommit: true }, (figures) => {
      check(figures);
      const before = first.get(figures.case);
      if (before) record(resultsDir, withCpuPass(before, figures));
    });
  }
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s${failed ? ': a consistency check FAILED' : ''}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
