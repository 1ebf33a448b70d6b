/**
 * `make scale-seed`: fills the database of DATABASE_URL (or the embedded PGlite of
 * DATA_DIR, up to 50,000 members) with a community of SCALE_MEMBERS members and SCALE_TX ledger rows,
 * for benchmarks, demos and tests. It runs the migrations and the app's own seed, refuses a database
 * that already holds members, then writes in bulk (`INSERT … SELECT` over generate_series) with the big
 * tables' indexes dropped and rebuilt after, on two connections, printing progress every 10 seconds and
 * each part's time at the end. See docs/scale.md.
 * Usage: DATABASE_URL=postgres://… node apps/server/scripts/scale-seed.ts
 */
import type { PGlite } from '@electric-sql/pglite';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { rebuildAccessLogCounts } from '../src/modules/accounts/accounts.queries.ts';
import { findSale } from '../src/modules/chips/chips.queries.ts';
import { appLeaderboardStore } from '../src/modules/leaderboard/leaderboard.redis-store.ts';
import { rebuildLeaderboard } from '../src/modules/leaderboard/leaderboard.sync.ts';
import { tableStore } from '../src/modules/leaderboard/leaderboard.table-store.ts';
import { rebuildMarketOpenCounts } from '../src/modules/market/market.queries.ts';
import { rebuildLedgerRollup } from '../src/modules/reports/rollup.queries.ts';
import { rebuildUserStats } from '../src/modules/reports/user-stats.queries.ts';
import { seed } from '../src/seed.ts';
import { chipsNeeded, insertCheckouts, insertChips, insertPackages } from './scale-seed.checkout.ts';
import {
  estimatedMinutes,
  loadScaleSettings,
  PGLITE_MAX_MEMBERS,
  planFor,
  probeSeconds,
  REFERENCE_PROBE_SECONDS,
} from './scale-seed.config.ts';
import {
  insertOrderLedger,
  insertOrders,
  insertTradeLedger,
  insertTrades,
  stageExchange,
  stageOrders,
} from './scale-seed.exchange.ts';
import { insertProcesses, insertRecipes } from './scale-seed.forge.ts';
import { insertAccessLogs, insertAdminLogs, insertCollections, insertItems } from './scale-seed.items.ts';
import {
  ensureChipSupply,
  insertBalances,
  insertFunding,
  insertMintsBurnsDistributions,
  insertSettlements,
  insertTransfers,
  setUpCurrencies,
} from './scale-seed.ledger.ts';
import { insertMarket } from './scale-seed.market.ts';
import { insertBroadcasts, insertFillNotifications, insertTransferNotifications } from './scale-seed.notifications.ts';
import {
  COUNTED_TABLES,
  type Conn,
  createHelpers,
  dropIndexes,
  ensureDatabase,
  FUNDED,
  KEPT_TABLES,
  moveLedger,
  Progress,
  restoreStatements,
  runTasks,
  S,
  type SeedContext,
  SPAN_SECONDS,
  type Task,
  vacuumTables,
} from './scale-seed.sql.ts';
import { insertMembers } from './scale-seed.users.ts';

/** What a run made: each part's time and the final counts. */
export interface ScaleSeedResult {
  timings: Array<{ name: string; seconds: number }>;
  counts: Record<string, number>;
  databaseSize: string;
  totalSeconds: number;
}

/** Funding rows: one per member funded in each currency (see FUNDED). */
function fundingRows(n: number): number {
  let rows = 0;
  for (const rs of Object.values(FUNDED)) for (const r of rs) if (r <= n) rows += Math.floor((n - r) / 20) + 1;
  return rows;
}

/** Opens the seed's sessions: two on PostgreSQL (bulk settings, replication role replica when allowed), one on PGlite. */
async function openSessions(
  databaseUrl: string | undefined,
  pglite: PGlite | undefined,
  log: (l: string) => void,
): Promise<{ conns: Conn[]; replica: boolean; close(): Promise<void> }> {
  if (!databaseUrl) {
    if (!pglite) throw new Error('no database');
    const conn: Conn = {
      query: async (text, params) => (await pglite.query(text, params as unknown[])).rows as never,
    };
    await conn.query(`SET session_replication_role = replica`);
    return { conns: [conn], replica: true, close: async () => {} };
  }
  const clients = [new pg.Client({ connectionString: databaseUrl }), new pg.Client({ connectionString: databaseUrl })];
  let replica = true;
  for (const c of clients) {
    await c.connect();
    await c.query(`SET synchronous_commit = off`);
    await c.query(`SET work_mem = '512MB'`);
    await c.query(`SET maintenance_work_mem = '1GB'`);
    await c.query(`SET max_parallel_maintenance_workers = 0`);
    await c.query(`SET jit = off`);
    try {
      await c.query(`SET session_replication_role = replica`);
    } catch {
      replica = false;
    }
  }
  if (!replica) {
    for (const c of clients) await c.query(`SET session_replication_role = origin`);
    log('[scale-seed] not a superuser: foreign keys are checked row by row (slower)');
  }
  // SCALE_DEBUG=1 prints every statement slower than a second (for tuning).
  const debug = process.env.SCALE_DEBUG === '1';
  const conns = clients.map(
    (c): Conn => ({
      query: async (text, params) => {
        const t = Date.now();
        const rows = (await c.query(text, params as unknown[])).rows as never;
        if (debug && Date.now() - t > 1000)
          log(`  [${((Date.now() - t) / 1000).toFixed(1)} s] ${text.slice(0, 160).replace(/\s+/g, ' ')}`);
        return rows;
      },
    }),
  );
  return { conns, replica, close: async () => void (await Promise.all(clients.map((c) => c.end()))) };
}

/**
 * Runs the whole seed with the settings of `env` (SCALE_MEMBERS, SCALE_TX, SCALE_PASSWORD, and the app's
 * own DATABASE_URL, DATA_DIR, ADMIN_*). Throws an Error with a message for the operator when a setting
 * is bad, the database already holds members, or PGlite is asked for more than 50,000 members.
 */
export async function runScaleSeed(
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = console.log,
): Promise<ScaleSeedResult> {
  const settings = loadScaleSettings(env);
  const config = loadConfig(env);
  if (!config.DATABASE_URL && settings.SCALE_MEMBERS > PGLITE_MAX_MEMBERS) {
    throw new Error(
      `SCALE_MEMBERS=${settings.SCALE_MEMBERS} is more than the embedded PGlite takes (${PGLITE_MAX_MEMBERS}): ` +
        'use PostgreSQL (set DATABASE_URL)',
    );
  }
  const plan = planFor(settings);
  log(`[scale-seed] ${settings.SCALE_MEMBERS} members and ${settings.SCALE_TX} ledger rows`);
  if (config.DATABASE_URL) await ensureDatabase(config.DATABASE_URL, log);
  const progress = new Progress(log);
  progress.start();
  const database = await progress.part('migrations', () =>
    openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 }),
  );
  try {
    const { db } = database;
    const pglite = database.kind === 'pglite' ? (db as unknown as { $client: PGlite }).$client : undefined;
    const sessions = await openSessions(config.DATABASE_URL, pglite, log);
    const [c1] = sessions.conns;
    if (!c1) throw new Error('no session');
    try {
      const probe = await probeSeconds((text) => c1.query(text));
      log(
        `[scale-seed] expect about ${estimatedMinutes(settings, probe)} min here: a test load took ${probe.toFixed(2)} s ` +
          `(${REFERENCE_PROBE_SECONDS} s where the defaults took 7 min 34 s)`,
      );
      const [held] = await c1.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM users WHERE NOT is_system AND role <> 'admin'`,
      );
      if ((held?.n ?? 0) > 0) {
        throw new Error(
          `The database already holds ${held?.n} member(s) besides the admin: scale-seed fills a new database only ` +
            '(it must never mix into a live community). Point DATABASE_URL at an empty database.',
        );
      }
      const seeded = await progress.part('app seed', () => seed(db, config));
      if (seeded.generatedPassword)
        log(`[scale-seed] admin ${seeded.adminNickname} password: ${seeded.generatedPassword}`);
      // Hashed once, with the product's own argon2 settings (users.service.ts `hashPassword`).
      const passwordHash = await hashPassword(settings.SCALE_PASSWORD);
      const sale = await findSale(db);
      const [admin] = await c1.query<{ id: string }>(`SELECT id FROM users WHERE lower(nickname) = lower($1)`, [
        seeded.adminNickname,
      ]);
      if (!sale || !admin) throw new Error('the app seed did not make the admin and the chip sale');
      const now = Math.floor(Date.now() / 1000);
      const ctx: SeedContext = {
        plan,
        n: settings.SCALE_MEMBERS,
        now,
        t0: now - SPAN_SECONDS,
        adminId: admin.id,
        adminNickname: seeded.adminNickname,
        saleId: sale.saleId,
        chipCurrencyId: sale.chipCurrencyId,
        shipsCollectionId: sale.shipsCollectionId,
      };
      log(
        `[scale-seed] ${ctx.n} members, ${plan.ledgerRows} ledger rows, ~${plan.trades} trades, ${plan.processes} forge processes, ` +
          `${plan.checkouts} checkouts, ${plan.items} items, ${plan.accessLogs} access-log rows` +
          (sessions.replica ? '' : ' (foreign keys checked per row)'),
      );
      const tickers = new Map<number, string>();
      let saved: Awaited<ReturnType<typeof dropIndexes>> = [];
      await progress.part('setup', async () => {
        await createHelpers(c1, ctx);
        await setUpCurrencies(c1, ctx);
        for (const r of await c1.query<{ id: number; ticker: string }>(
          'SELECT currency_id AS id, ticker FROM currencies',
        ))
          tickers.set(Number(r.id), r.ticker);
        await ensureChipSupply(c1, ctx, chipsNeeded(ctx));
        await insertRecipes(c1, ctx);
        await insertPackages(c1, ctx);
        await insertCollections(c1, ctx);
        // The admin and the chip sale run the community from its first day (their rows predate every member's).
        await c1.query(`UPDATE users SET created_at = to_timestamp(${ctx.t0 - 86_400}) WHERE id IN ($1, $2)`, [
          ctx.adminId,
          ctx.saleId,
        ]);
        saved = await dropIndexes(c1);
      });
      const users = sessions.replica ? [] : ['users'];
      const ledgerParts = [
        'exchange order rows',
        'exchange trade rows',
        'forge',
        'checkouts',
        'chips',
        'settlements',
        'mints, burns, distributions',
      ];
      const tasks: Task[] = [
        // The exchange is the longest chain: its parts come first, so a free session takes them first.
        {
          name: 'exchange staging',
          after: users,
          run: async (c) => {
            await stageExchange(c, ctx, tickers);
            await stageOrders(c, ctx);
          },
        },
        { name: 'exchange orders', after: ['exchange staging'], run: (c) => insertOrders(c) },
        {
          name: 'exchange trades',
          after: ['exchange staging', ...(sessions.replica ? [] : ['exchange orders'])],
          run: (c) => insertTrades(c),
        },
        { name: 'exchange order rows', after: ['exchange staging'], run: (c) => insertOrderLedger(c) },
        { name: 'exchange trade rows', after: ['exchange staging'], run: (c) => insertTradeLedger(c) },
        { name: 'users', run: (c) => insertMembers(c, ctx, passwordHash) },
        { name: 'forge', after: users, run: (c) => insertProcesses(c, ctx) },
        { name: 'checkouts', after: users, run: (c) => insertCheckouts(c, ctx) },
        { name: 'chips', after: users, run: (c) => insertChips(c, ctx) },
        { name: 'settlements', after: users, run: (c) => insertSettlements(c, ctx) },
        { name: 'mints, burns, distributions', after: users, run: (c) => insertMintsBurnsDistributions(c, ctx) },
        {
          name: 'transfers',
          after: ledgerParts,
          run: async (c) => {
            const [now] = await c.query<{ rows: number; m1: number }>(
              `SELECT count(*)::int + (SELECT count(*)::int FROM bank_transactions) AS rows,
                      count(*) FILTER (WHERE sender_id = ${S}.uid(1) OR recipient_id = ${S}.uid(1))::int AS m1
                 FROM ${S}.ledger`,
            );
            const rows = plan.ledgerRows - (now?.rows ?? 0) - fundingRows(ctx.n);
            if (rows < 0) log(`[scale-seed] the other parts took ${-rows} ledger rows more than SCALE_TX allows`);
            const m1 = Math.max(0, Math.ceil((plan.member1.ledgerRows - (now?.m1 ?? 0)) * 1.05) + 50);
            await insertTransfers(c, ctx, rows, m1);
          },
        },
        { name: 'funding', after: ['transfers'], run: (c) => insertFunding(c, ctx) },
        { name: 'ledger move', after: ['funding'], run: (c) => moveLedger(c) },
        { name: 'notifications', after: ['funding'], run: (c) => insertTransferNotifications(c, ctx) },
        {
          name: 'fill notifications',
          after: [...users, 'exchange orders', 'exchange trades'],
          run: (c) => insertFillNotifications(c, ctx),
        },
        {
          name: 'broadcasts',
          after: ['notifications', 'fill notifications'],
          run: (c) => insertBroadcasts(c, ctx),
        },
        { name: 'balances', after: ['funding'], run: (c) => insertBalances(c) },
        {
          name: 'items',
          after: [...users, 'checkouts', 'chips'],
          run: async (c) => {
            const [have] = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM items');
            await insertItems(c, ctx, plan.items - (have?.n ?? 0));
          },
        },
        { name: 'market listings', after: ['items'], run: (c) => insertMarket(c, ctx) },
        { name: 'access log', after: users, run: (c) => insertAccessLogs(c, ctx) },
        { name: 'admin log', after: users, run: (c) => insertAdminLogs(c, ctx) },
      ];
      await runTasks(tasks, sessions.conns, progress);
      const [neg] = await c1.query<{ n: number }>('SELECT count(*)::int AS n FROM balances WHERE amount < 0');
      if ((neg?.n ?? 0) > 0) throw new Error(`${neg?.n} negative balance(s): the seed is wrong`);
      // Indexes: the biggest tables first, spread over the sessions.
      const sizes = new Map(
        (
          await c1.query<{ t: string; b: string }>(
            `SELECT relname AS t, pg_total_relation_size(oid)::text AS b FROM pg_class WHERE relname = ANY($1::text[])`,
            [[...new Set(saved.map((s) => s.table))]],
          )
        ).map((r) => [r.t, Number(r.b)]),
      );
      const indexTasks: Task[] = [...saved]
        .sort((a, b) => (sizes.get(b.table) ?? 0) - (sizes.get(a.table) ?? 0))
        .map((ix) => ({
          name: `index ${ix.name}`,
          run: async (c) => {
            for (const s of restoreStatements(ix)) await c.query(s);
          },
        }));
      await runTasks(indexTasks, sessions.conns, progress);
      // Every page of the lists is read from its index alone, which needs the visibility map that only
      // VACUUM sets: on a fresh bulk load it is empty (and autovacuum may be off or late). The loaded tables
      // are vacuumed here, before the kept structures are built from them (whose plans want the statistics),
      // and only those kept tables at the end: the loaded ones are not written again.
      if (process.env.SCALE_DEBUG !== '1') await c1.query(`DROP SCHEMA ${S} CASCADE`);
      await vacuumTables(sessions.conns, progress);

      // Derived structures: rebuilt here. The rows above were written back-dated and with the triggers off,
      // so the kept ranking, the ledger rollup (and kept candles) and the kept user stats are made afresh
      // from their sources, and the first request after the seed is as fast as any. On PostgreSQL the
      // rollup (the longest) runs beside the others.
      const others = async () => {
        await progress.part('user stats', () => rebuildUserStats(db));
        await progress.part('access log counts', () => rebuildAccessLogCounts(db));
        await progress.part('market counts', () => rebuildMarketOpenCounts(db));
        await progress.part('leaderboard', () => rebuildLeaderboard(db, tableStore()));
        if (config.REDIS_URL) {
          // The store the app reads when REDIS_URL is set (keys named after this database).
          const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
          try {
            await progress.part('leaderboard in Redis', () =>
              rebuildLeaderboard(db, appLeaderboardStore(redis, config.DATABASE_URL)),
            );
          } finally {
            redis.disconnect();
          }
        }
      };
      const rollup = () => progress.part('ledger rollup and candles', () => rebuildLedgerRollup(db));
      if (database.kind === 'postgres') await Promise.all([rollup(), others()]);
      else {
        await rollup();
        await others();
      }
      await vacuumTables(sessions.conns, progress, KEPT_TABLES);

      const counts: Record<string, number> = {};
      for (const t of COUNTED_TABLES) {
        const [r] = await c1.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`);
        counts[t] = r?.n ?? 0;
      }
      const [open] = await c1.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM exchange_orders WHERE state = 1 GROUP BY pair_id ORDER BY 1 DESC LIMIT 1`,
      );
      counts.open_orders_busiest_pair = open?.n ?? 0;
      const [size] = await c1.query<{ s: string }>(`SELECT pg_size_pretty(pg_database_size(current_database())) AS s`);
      const totalSeconds = progress.timings.reduce((s, t) => s + t.seconds, 0);
      log(`[scale-seed ${progress.clock()}] done`);
      for (const t of progress.timings) log(`  ${t.name.padEnd(40)} ${t.seconds.toFixed(1).padStart(8)} s`);
      for (const [k, v] of Object.entries(counts)) log(`  ${k.padEnd(40)} ${String(v).padStart(12)}`);
      log(`  database size ${size?.s ?? '?'}`);
      return { timings: progress.timings, counts, databaseSize: size?.s ?? '?', totalSeconds };
    } finally {
      await sessions.close();
    }
  } finally {
    progress.stop();
    await database.close();
  }
}

if (import.meta.main) {
  runScaleSeed().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(`scale-seed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
