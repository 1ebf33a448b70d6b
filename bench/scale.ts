/**
 * `make bench-scale`: Starlight measured on a database from `make scale-seed`.
 *
 * - Reads: every read route a visitor, `member1` (signed in with SCALE_PASSWORD) and the admin use
 *   (bench/cases/scale-reads.ts), each at BENCH_CONNECTIONS (32) for BENCH_DURATION (5 s) after
 *   BENCH_WARMUP (1 s): requests/s, p50, p99, errors; any non-2xx answer fails the case.
 * - Writes: the write cases of `make bench` (bench/cases: transfers, orders, forge, checkout webhooks,
 *   chips) on the big database and on an empty one in the same run, each as its ratio to pgbench TPC-B
 *   of this run (pgbench on a database of its own), and the big one's share of the empty one's.
 * - The server's peak resident memory (VmHWM) on each database.
 * - Growth: the same reads on a small seeded database (10,000 members), p50 at scale over p50 there.
 * Results: bench/results/scale.json and the "Measured at scale" table of bench/RESULTS.md (a full run only;
 * a run of some phases or cases writes bench/results/scale-trial.json and leaves bench/RESULTS.md alone).
 *
 * Usage: `node bench/scale.ts [empty|big|small|reads|writes|<case> ...]` (default: everything).
 * Settings (environment): SCALE_DATABASE_URL (postgres://postgres@127.0.0.1:5432/starlight_scale),
 * SCALE_SMALL_DATABASE_URL (…/starlight_scale_small: seeded here with SCALE_SMALL_MEMBERS, 10,000, when it
 * holds no seeded community), SCALE_PASSWORD (member1's, the seed's default), REDIS_URL
 * (redis://127.0.0.1:6379: each server gets a logical database of its own on it, flushed when it held
 * another database's, and its kept leaderboard built before the reads: 12 big, 13 small, 14 empty),
 * BENCH_WRITE_DURATION (5 s), and
 * make bench's BENCH_CONNECTIONS, BENCH_DURATION, BENCH_WARMUP, BENCH_MEMBERS, BENCH_PG_*.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BENCH_STRIPE_WEBHOOK_SECRET, checkoutSuite } from './cases/checkout.ts';
import { chipsSuite } from './cases/chips.ts';
import { exchangeSuite } from './cases/exchange.ts';
import { forgeSuite } from './cases/forge.ts';
import { ledgerSuite } from './cases/ledger.ts';
import { findFixture, type ReadFixture, readCases, runReadCase } from './cases/scale-reads.ts';
import { api } from './lib/api.ts';
import type { BenchContext, BenchSettings, Suite } from './lib/context.ts';
import { runPgbench } from './lib/pgbench.ts';
import { databaseUrl, type PgTarget, psql, recreateDatabase } from './lib/postgres.ts';
import { type Figures, failedChecks } from './lib/results.ts';
import {
  growthRatio,
  markdownTable,
  peakMemoryMb,
  RESULTS_FILE,
  type ReadFigures,
  readVerdict,
  replaceResultsSection,
  TARGETS,
  type TableRow,
  writeShare,
} from './lib/scale.ts';
import { adminSession, MEMBER, parseDatabaseUrl, type Seeded, StopError, seededCommunity } from './lib/scale-db.ts';
import { type ServerHandle, startServer } from './lib/server.ts';

const execFileP = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const resultsDir = path.join(here, 'results');

/** The write suites of `make bench` (bench/run.ts), in its order; the web case is no write. */
const WRITE_SUITES: Suite[] = [ledgerSuite, exchangeSuite, forgeSuite, checkoutSuite, chipsSuite];
const WRITE_CASES = WRITE_SUITES.flatMap((s) => s.cases);
const PHASES = ['empty', 'big', 'small'] as const;
type Phase = (typeof PHASES)[number];

const EMPTY_DB = 'starlight_bench_scale_empty';
const PGBENCH_DB = 'starlight_bench_scale_pgbench';
const EMPTY_ADMIN = 'admin';
const EMPTY_ADMIN_PASSWORD = 'Bench-admin-9!';
/** The seed's default SCALE_PASSWORD (apps/server/scripts/scale-seed.ts, docs/scale.md). */
const DEFAULT_SCALE_PASSWORD = 'Scale-Passw0rd!';

const log = (message: string) => console.error(`[bench-scale] ${message}`);

const intEnv = (name: string, fallback: number) => {
  const v = process.env[name];
  const n = v === undefined || v === '' ? fallback : Number(v);
  if (!Number.isInteger(n) || n < 0) throw new StopError(`${name} must be a whole number, not ${v}`);
  return n;
};

/** `redis-cli -u <url> FLUSHDB` for one of bench-scale's own logical databases. */
async function flushRedis(url: string): Promise<void> {
  await execFileP('redis-cli', ['-u', url, 'FLUSHDB']);
}

/** The key naming the PostgreSQL database whose server last used one of bench-scale's Redis databases. */
const REDIS_OWNER = 'bench-scale:database';

/**
 * Makes the Redis logical database `url` the one of `database` on `pg`: kept as it is when it already was (its
 * kept leaderboard then only catches up, instead of a first build of a million members), else flushed
 * and claimed.
 */
async function claimRedis(url: string, pg: PgTarget, database: string): Promise<void> {
  // The database's oid too: a database dropped and seeded again under the same name is another one.
  const owner = `${database}:${await psql(pg, 'postgres', `SELECT oid FROM pg_database WHERE datname = '${database}'`)}`;
  const { stdout } = await execFileP('redis-cli', ['-u', url, 'GET', REDIS_OWNER]);
  if (stdout.trim() === owner) return;
  await flushRedis(url);
  await execFileP('redis-cli', ['-u', url, 'SET', REDIS_OWNER, owner]);
}

/**
 * Waits (up to 10 minutes) until the server on `database` has its kept leaderboard in `redisUrl` built for
 * that database, as the server itself judges it (apps/server/src/modules/leaderboard/leaderboard.store.ts,
 * `redisStore().mark`): a mark under `starlight:lb:<database>:`, and a build key equal to the database's
 * `leaderboard_state` row of store `redis`. A mark alone is not enough: a ranking built for an earlier
 * build of the database still has one until the server's first tick starts the rebuild, which would then
 * run under the read cases. Logs how long it took; goes on with a warning when it never is.
 */
async function waitForLeaderboard(redisUrl: string, pg: PgTarget, database: string): Promise<void> {
  const started = Date.now();
  const prefix = `starlight:lb:${database}:`;
  while (Date.now() - started < 600_000) {
    const { stdout } = await execFileP('redis-cli', [
      '-u',
      redisUrl,
      '--raw',
      'MGET',
      `${prefix}mark`,
      `${prefix}build`,
    ]);
    const [mark = '', build = ''] = stdout.split('\n').map((l) => l.trim());
    const built = await psql(pg, database, "SELECT built_at::text FROM leaderboard_state WHERE store = 'redis'");
    if (mark !== '' && build !== '' && build === built) {
      log(`kept leaderboard ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      return;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  log(`no kept leaderboard for ${database} in ${redisUrl} after 10 minutes: measuring anyway`);
}

/** Runs `make scale-seed`'s script on `url` with `members` members (its output goes to ours). */
async function seedSmall(url: string, members: number, redisUrl: string, password: string): Promise<void> {
  const script = path.join(root, 'apps/server/scripts/scale-seed.ts');
  if (!existsSync(script)) throw new StopError(`No ${script} yet: cannot seed the small database`);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: url,
        REDIS_URL: redisUrl,
        SCALE_MEMBERS: String(members),
        SCALE_TX: String(members * 10),
        SCALE_PASSWORD: password,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`scale-seed exited with ${code}`))));
  });
}

interface PhaseResult {
  database: string;
  members?: number;
  ledger_rows_estimate?: number;
  reads: ReadFigures[];
  writes: Figures[];
  peak_memory_mb: number | null;
  started_at: string;
  seconds: number;
}

interface ServerSpec {
  pg: PgTarget;
  database: string;
  redisUrl: string;
  adminNickname: string;
  adminPassword: string;
}

async function withServer<T>(spec: ServerSpec, fn: (server: ServerHandle) => Promise<T>): Promise<T> {
  const env: Record<string, string> = {
    REDIS_URL: spec.redisUrl,
    STRIPE_SECRET_KEY: 'sk_test_bench',
    STRIPE_WEBHOOK_SECRET: BENCH_STRIPE_WEBHOOK_SECRET,
    STRIPE_API_URL: 'http://127.0.0.1:9',
  };
  if (process.env.BENCH_LOG_LEVEL) env.LOG_LEVEL = process.env.BENCH_LOG_LEVEL;
  if (process.env.BENCH_DB_POOL_SIZE) env.DB_POOL_SIZE = process.env.BENCH_DB_POOL_SIZE;
  const server = await startServer({
    root,
    databaseUrl: databaseUrl(spec.pg, spec.database),
    adminNickname: spec.adminNickname,
    adminPassword: spec.adminPassword,
    env,
    nodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
    readyTimeoutS: 1800,
  });
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

/** A run tag of 4 characters (base 36 of the time in seconds): unique names for this run's bench rows. */
function runTag(): string {
  return (Math.floor(Date.now() / 1000) % 36 ** 4).toString(36).toUpperCase().padStart(4, '0');
}

async function runWrites(
  ctx: BenchContext,
  selected: (name: string) => boolean,
  consistency: { failed: boolean },
): Promise<Figures[]> {
  const out: Figures[] = [];
  const report = (figures: Figures) => {
    console.log(JSON.stringify({ database: ctx.database, ...figures }));
    const failures = failedChecks(figures);
    if (failures.length > 0) {
      consistency.failed = true;
      log(`${figures.case}: FAILED ${failures.join(', ')}`);
    }
    out.push(figures);
  };
  for (const suite of WRITE_SUITES) {
    if (!suite.cases.some(selected)) continue;
    try {
      await suite.run(ctx, selected, report);
    } catch (err) {
      // One suite's failure (e.g. a sale too small for the chips) is reported, the others still run.
      const message = err instanceof Error ? err.message : String(err);
      log(`${suite.name} on ${ctx.database} failed: ${message}`);
      for (const c of suite.cases.filter(selected)) out.push({ case: c, failed: message.slice(0, 500) });
    }
  }
  return out;
}

async function runReads(
  server: ServerHandle,
  fixture: ReadFixture,
  settings: BenchSettings,
  selected: (name: string) => boolean,
  database: string,
): Promise<ReadFigures[]> {
  const out: ReadFigures[] = [];
  for (const c of readCases(fixture)) {
    if (!selected(c.name)) continue;
    const figures = await runReadCase(server.url, c, fixture, settings, log, { serverPid: server.pid, database });
    console.log(JSON.stringify({ database, ...figures }));
    out.push(figures);
  }
  return out;
}

/** The table rows of a run: every read (with growth), every write share, memory. */
function tableRows(phases: Partial<Record<Phase, PhaseResult>>): TableRow[] {
  const rows: TableRow[] = [];
  const small = new Map((phases.small?.reads ?? []).map((r) => [r.case, r]));
  for (const r of phases.big?.reads ?? []) {
    const v = readVerdict(r);
    const errs = r.errors + r.non2xx > 0 ? `, ${r.errors + r.non2xx} errors` : '';
    rows.push({
      what: `${r.case} (${r.route})`,
      figure: `${r.requests_per_s} req/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms${errs}`,
      target: v.target,
      met: v.met,
    });
    const s = small.get(r.case);
    const g = growthRatio(r.p50_ms, s?.p50_ms);
    if (g !== null && s)
      rows.push({
        what: `${r.case} growth`,
        figure: `p50 ${r.p50_ms} ms vs ${s.p50_ms} ms at ${phases.small?.members ?? '?'} members: ${g}x`,
        target: `<= ${TARGETS.growth}x`,
        met: g <= TARGETS.growth,
      });
  }
  if (!phases.big)
    for (const r of phases.small?.reads ?? []) {
      const v = readVerdict(r);
      rows.push({
        what: `${r.case} (small)`,
        figure: `${r.requests_per_s} req/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms`,
        target: v.target,
        met: null,
      });
    }
  const empty = new Map((phases.empty?.writes ?? []).map((w) => [w.case, w]));
  for (const w of phases.big?.writes ?? []) {
    const e = empty.get(w.case);
    const bigRatio = typeof w.ratio === 'number' ? w.ratio : null;
    const emptyRatio = typeof e?.ratio === 'number' ? e.ratio : null;
    if (bigRatio === null) {
      rows.push({ what: `${w.case} (write)`, figure: `failed: ${String(w.failed ?? '?')}`, target: '', met: false });
      continue;
    }
    const share = emptyRatio !== null ? writeShare(bigRatio, emptyRatio) : null;
    const rate = Object.entries(w).find(([k]) => k.endsWith('_per_s'))?.[1];
    const audit = w.audit_ok === false || e?.audit_ok === false ? ', audit FAILED' : '';
    rows.push({
      what: `${w.case} (write)`,
      figure: `${rate}/s, ratio ${bigRatio} at scale vs ${emptyRatio ?? '?'} empty${share ? `: ${share.share}` : ''}${audit}`,
      target: `>= ${TARGETS.writeShareOfEmpty} of empty, audit clean`,
      met: share ? share.met && audit === '' : null,
    });
  }
  for (const phase of PHASES) {
    const mb = phases[phase]?.peak_memory_mb;
    if (mb === undefined || mb === null) continue;
    rows.push({
      what: `server peak memory (${phase} database)`,
      figure: `${mb} MB`,
      target: phase === 'big' ? `<= ${TARGETS.memoryMb} MB` : '',
      met: phase === 'big' ? mb <= TARGETS.memoryMb : null,
    });
  }
  return rows;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const readNames = readCases({
    currencyId: 1,
    outsideTopCurrencyId: 1,
    pair: '',
    collection: 'x',
    counterparty: 'x',
    memberNickname: MEMBER,
    memberToken: '',
    adminToken: '',
    nicknameSearch: '',
    deepUsersPage: 1,
  }).map((c) => c.name);
  const known = [...PHASES, 'reads', 'writes', ...readNames, ...WRITE_CASES];
  const unknown = args.filter((a) => !known.includes(a));
  if (unknown.length > 0) throw new StopError(`Unknown phase or case ${unknown.join(', ')} (have ${known.join(', ')})`);
  const phaseArgs = args.filter((a): a is Phase => (PHASES as readonly string[]).includes(a));
  const caseArgs = args.filter((a) => readNames.includes(a) || WRITE_CASES.includes(a));
  const kindArgs = args.filter((a) => a === 'reads' || a === 'writes');
  const phases = phaseArgs.length > 0 ? phaseArgs : [...PHASES];
  // Named cases pick their kind; otherwise `reads` / `writes`, or both.
  const wantReads =
    caseArgs.length > 0
      ? caseArgs.some((c) => readNames.includes(c))
      : kindArgs.length === 0 || kindArgs.includes('reads');
  const wantWrites =
    caseArgs.length > 0
      ? caseArgs.some((c) => WRITE_CASES.includes(c))
      : kindArgs.length === 0 || kindArgs.includes('writes');
  const picked = (name: string) => caseArgs.length === 0 || caseArgs.includes(name);
  const full = args.length === 0;

  const reads: BenchSettings = {
    connections: intEnv('BENCH_CONNECTIONS', 32),
    durationS: intEnv('BENCH_DURATION', 5),
    warmupS: intEnv('BENCH_WARMUP', 1),
  };
  const writes: BenchSettings = { ...reads, durationS: intEnv('BENCH_WRITE_DURATION', 5) };
  const password = process.env.SCALE_PASSWORD || DEFAULT_SCALE_PASSWORD;
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const redisBase = redisUrl.replace(/\/\d*$/, '');
  const big = parseDatabaseUrl(
    'SCALE_DATABASE_URL',
    process.env.SCALE_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/starlight_scale',
  );
  const smallUrl = process.env.SCALE_SMALL_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/starlight_scale_small';
  const small = parseDatabaseUrl('SCALE_SMALL_DATABASE_URL', smallUrl);
  const started = Date.now();

  const bigSeeded = await seededCommunity(big.pg, big.database);
  if (!bigSeeded)
    throw new StopError(
      `${big.database} holds no community from make scale-seed (no ${MEMBER} with ${MEMBER}@scale.example). ` +
        `Fill it first: DATABASE_URL=${databaseUrl(big.pg, big.database)} make scale-seed, then make bench-scale.`,
    );
  log(`${big.database}: ${bigSeeded.members} seeded members, about ${bigSeeded.ledgerRows} ledger rows`);

  let smallSeeded: Seeded | null = null;
  if (phases.includes('small') && wantReads) {
    smallSeeded = await seededCommunity(small.pg, small.database);
    if (!smallSeeded) {
      const members = intEnv('SCALE_SMALL_MEMBERS', 10_000);
      log(`${small.database}: no seeded community; seeding ${members} members (make scale-seed)`);
      await recreateDatabase(small.pg, small.database);
      await flushRedis(`${redisBase}/13`);
      await claimRedis(`${redisBase}/13`, small.pg, small.database);
      await seedSmall(smallUrl, members, `${redisBase}/13`, password);
      smallSeeded = await seededCommunity(small.pg, small.database);
      if (!smallSeeded) throw new StopError(`${small.database}: the seed left no ${MEMBER}@scale.example`);
    }
    log(`${small.database}: ${smallSeeded.members} seeded members, about ${smallSeeded.ledgerRows} ledger rows`);
  }

  let pgbench: { tps: number; cpu: BenchContext['pgbenchCpu'] } = { tps: 0, cpu: null };
  if (wantWrites && (phases.includes('empty') || phases.includes('big'))) {
    const pg = big.pg;
    const scale = Math.max(intEnv('BENCH_PGBENCH_SCALE', writes.connections), writes.connections);
    log(`pgbench: TPC-B, scale ${scale}, ${writes.connections} clients, ${writes.durationS} s`);
    pgbench = await runPgbench(pg, {
      database: PGBENCH_DB,
      scale,
      clients: writes.connections,
      threads: 2,
      durationS: writes.durationS,
    });
    log(`pgbench: ${pgbench.tps.toFixed(1)} tps`);
    await psql(pg, 'postgres', `DROP DATABASE IF EXISTS ${PGBENCH_DB} WITH (FORCE)`);
  }

  const consistency = { failed: false };
  const results: Partial<Record<Phase, PhaseResult>> = {};
  const context = (server: ServerHandle, pg: PgTarget, database: string, adminToken: string, tag: string) =>
    ({
      settings: writes,
      server,
      api: api(server.url),
      adminNickname: '',
      adminToken,
      pgbenchTps: pgbench.tps,
      pgbenchCpu: pgbench.cpu,
      pg,
      database,
      tag,
      log,
    }) satisfies BenchContext;

  /** Writes what has been measured so far (after each phase: a run cut short still leaves its figures). */
  const save = (complete: boolean) => {
    const rows = tableRows(results);
    const table = markdownTable(rows);
    if (complete) console.error(`\n${table}\n`);
    const missed = rows.filter((r) => r.met === false).length;
    const met = rows.filter((r) => r.met === true).length;
    log(`${complete ? 'targets' : 'so far'}: ${met} met, ${missed} missed`);
    const out = {
      at: new Date().toISOString(),
      complete,
      settings: { reads, writes },
      pgbench_tps: Math.round(pgbench.tps * 10) / 10,
      pgbench_cpu_pct: pgbench.cpu,
      targets: TARGETS,
      phases: results,
      rows,
      met,
      missed,
    };
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, full ? 'scale.json' : 'scale-trial.json'), `${JSON.stringify(out, null, 2)}\n`);
    if (full) {
      const resultsFile = path.join(root, RESULTS_FILE);
      const body = [
        `\`make bench-scale\` on ${results.big?.members ?? '?'} members and about ${results.big?.ledger_rows_estimate ?? '?'} ledger rows ` +
          `(growth against ${results.small?.members ?? '?'} members), ${reads.connections} connections, ` +
          `${reads.durationS} s a read case, ${writes.durationS} s a write case, pgbench TPC-B ${out.pgbench_tps} tps in the same run; ` +
          `${out.at.slice(0, 16).replace('T', ' ')} UTC on this 2-core machine${complete ? '' : ' (a run still under way or cut short: the phases so far)'}. ` +
          'Every figure: bench/results/scale.json. ' +
          'Run it with `make bench-scale` (SCALE_DATABASE_URL, default starlight_scale, filled by make scale-seed; it seeds ' +
          'starlight_scale_small with 10,000 members for the growth rows when that holds no community). Writes compare ' +
          'each case to the same case on an empty database in the same run, both divided by pgbench TPC-B of that run.',
        '',
        table,
      ].join('\n');
      const current = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
      writeFileSync(resultsFile, replaceResultsSection(current, body));
      // `make test` lints Markdown too (Biome formats its tables): keep the file formatted.
      execFileSync('npx', ['biome', 'format', '--write', resultsFile], { cwd: root, stdio: 'ignore' });
    }
  };

  /** Reads (and, on the big database, writes) on a seeded database. */
  const seededPhase = async (
    target: { pg: PgTarget; database: string },
    seeded: Seeded,
    redis: string,
    withWrites: boolean,
  ): Promise<PhaseResult> => {
    const at = Date.now();
    log(`${target.database}: starting the server (REDIS_URL ${redis})`);
    return withServer(
      {
        pg: target.pg,
        database: target.database,
        redisUrl: redis,
        adminNickname: seeded.admin.nickname,
        adminPassword: EMPTY_ADMIN_PASSWORD,
      },
      async (server) => {
        const client = api(server.url);
        await waitForLeaderboard(redis, target.pg, target.database);
        const adminToken = await adminSession(target.pg, target.database, seeded.admin);
        let r: ReadFigures[] = [];
        if (wantReads) {
          const { token: memberToken } = await client.post<{ token: string }>('/api/user/login', {
            nickOrEmail: MEMBER,
            password,
          });
          const fixture = await findFixture(
            client,
            { memberNickname: MEMBER, memberToken, adminToken },
            seeded.members,
          );
          // This machine's PostgreSQL runs without autovacuum (CI's settings), so what earlier runs' write
          // cases added to a database kept between runs would be read with stale statistics (an admin
          // filter planned for a state's old share of the rows) and without visibility maps:
          // the state no maintained database stays in. The vacuum autovacuum would have run, before the reads.
          const vacuumed = Date.now();
          await psql(target.pg, target.database, 'VACUUM (ANALYZE)');
          log(`${target.database}: vacuumed and analysed in ${((Date.now() - vacuumed) / 1000).toFixed(1)} s`);
          log(`${target.database}: read cases (pair ${fixture.pair}, collection ${fixture.collection})`);
          r = await runReads(server, fixture, reads, picked, target.database);
        }
        let w: Figures[] = [];
        if (withWrites) {
          const tag = runTag();
          log(`${target.database}: write cases (bench members tagged ${tag})`);
          const ctx = {
            ...context(server, target.pg, target.database, adminToken, tag),
            adminNickname: seeded.admin.nickname,
          };
          w = await runWrites(ctx, picked, consistency);
        }
        return {
          database: target.database,
          members: seeded.members,
          ledger_rows_estimate: seeded.ledgerRows,
          reads: r,
          writes: w,
          peak_memory_mb: peakMemoryMb(server.pid),
          started_at: new Date(at).toISOString(),
          seconds: Math.round((Date.now() - at) / 1000),
        };
      },
    );
  };

  // Each database's server gets a Redis logical database of its own (claimRedis), apart from whatever
  // other servers keep in Redis, and is measured with its kept leaderboard built.
  if (phases.includes('big')) {
    await claimRedis(`${redisBase}/12`, big.pg, big.database);
    results.big = await seededPhase(big, bigSeeded, `${redisBase}/12`, wantWrites);
  }
  save(false);
  if (phases.includes('empty') && wantWrites) {
    const at = Date.now();
    log(`${EMPTY_DB}: recreating (empty), write cases`);
    await recreateDatabase(big.pg, EMPTY_DB);
    await flushRedis(`${redisBase}/14`);
    results.empty = await withServer(
      {
        pg: big.pg,
        database: EMPTY_DB,
        redisUrl: `${redisBase}/14`,
        adminNickname: EMPTY_ADMIN,
        adminPassword: EMPTY_ADMIN_PASSWORD,
      },
      async (server) => {
        const { token } = await api(server.url).post<{ token: string }>('/api/user/login', {
          nickOrEmail: EMPTY_ADMIN,
          password: EMPTY_ADMIN_PASSWORD,
        });
        const ctx = { ...context(server, big.pg, EMPTY_DB, token, ''), adminNickname: EMPTY_ADMIN };
        const w = await runWrites(ctx, picked, consistency);
        return {
          database: EMPTY_DB,
          reads: [],
          writes: w,
          peak_memory_mb: peakMemoryMb(server.pid),
          started_at: new Date(at).toISOString(),
          seconds: Math.round((Date.now() - at) / 1000),
        };
      },
    );
  }

  save(false);
  if (phases.includes('small') && wantReads && smallSeeded) {
    await claimRedis(`${redisBase}/13`, small.pg, small.database);
    results.small = await seededPhase(small, smallSeeded, `${redisBase}/13`, false);
  }

  save(true);
  log(
    `done in ${((Date.now() - started) / 1000).toFixed(0)} s${consistency.failed ? ': a consistency check FAILED' : ''}`,
  );
  return consistency.failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof StopError) {
      console.error(`bench-scale: ${err.message}`);
      process.exit(2);
    }
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
