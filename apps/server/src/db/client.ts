/**
 * The database handle (DESIGN §1): PostgreSQL through `DATABASE_URL`, else an embedded PGlite in
 * `DATA_DIR`. Both speak the same SQL and run the same migrations.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { type PgDialect, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../paths.ts';
import * as schema from './schema/index.ts';

// NUMERIC and BIGINT come back as text: money never passes through a float.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);

/** The Drizzle handle every query function takes first (STYLE: midday). */
export type Db = NodePgDatabase<typeof schema>;
/** A handle inside a transaction; query functions accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  /**
   * The handle for reads that tolerate a few seconds of lag (leaderboards, public stats,
   * candles, trades, supply history, admin lists and stats): a standby through `DATABASE_READ_URL`, else
   * `db` itself. Never for a member's own balances, history or orders right after their own write.
   */
  readDb: Db;
  kind: 'postgres' | 'pglite';
  /** The raw pg pool (PostgreSQL only), for NOTIFY and the pool's metrics. */
  pool?: pg.Pool;
  /** The standby's pool, when `DATABASE_READ_URL` is set (its replication lag is a metric). */
  readPool?: pg.Pool;
  /**
   * Where the event bus LISTENs (PostgreSQL only): a direct connection to the primary, since a pooler in
   * transaction mode cannot hold a LISTEN (`DATABASE_LISTEN_URL`, else `DATABASE_URL`).
   */
  listenUrl?: string;
  close(): Promise<void>;
}

/** How long taking a connection may wait before the request fails with 503 (milliseconds). */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The clients of pools behind PgBouncer in transaction mode (`DATABASE_POOLER=transaction`), and those
 * pools: their statements go unnamed, since each transaction may run on another server connection, where
 * a statement prepared earlier does not exist (PgBouncer 1.18, Debian 12's, does not track them).
 */
const unpreparedClients = new WeakSet<object>();

/** A pg pool on `url` with the timeouts a lost database needs: a wait for a connection fails after 5 s. */
function newPool(url: string, max: number, prepared: boolean): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    // A transaction's BEGIN goes out with its first statement (`withTransaction`).
    pipeline: true,
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it.
  });
  pool.on('connect', (client) => {
    // A checked-out client whose server goes away between two statements (a restart, PgBouncer's "server
    // conn crashed?") emits 'error', which would end the process unheard. Its next statement fails
    // instead (a 503), and the pool drops it when it is released.
    client.on('error', () => {});
    if (!prepared) unpreparedClients.add(client);
  });
  if (!prepared) unpreparedClients.add(pool);
  return pool;
}

/**
 * Opens the database and applies the committed migrations.
 * `databaseUrl` undefined means the embedded PGlite in `dataDir` (`memory://` keeps it in memory).
 * `readUrl`: a standby for lag-tolerant reads (`readDb`); `listenUrl`: where LISTEN connects (default
 * `databaseUrl`); `pooler: 'transaction'` when `databaseUrl` is PgBouncer in transaction mode.
 */
export async function openDatabase(opts: {
  databaseUrl?: string | undefined;
  readUrl?: string | undefined;
  listenUrl?: string | undefined;
  pooler?: 'none' | 'transaction';
  dataDir: string;
  poolSize?: number;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const size = opts.poolSize ?? 20;
    const pool = newPool(opts.databaseUrl, size, opts.pooler !== 'transaction');
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
    // A standby is reached directly (a hot standby answers reads only), so its statements stay prepared.
    const readPool = opts.readUrl ? newPool(opts.readUrl, size, true) : undefined;
    return {
      db,
      readDb: readPool ? drizzlePg(readPool, { schema }) : db,
      kind: 'postgres',
      pool,
      readPool,
      listenUrl: opts.listenUrl ?? opts.databaseUrl,
      close: async () => {
        await Promise.all([pool.end(), readPool?.end()]);
      },
    };
  }
  const dir = opts.dataDir === 'memory://' ? undefined : path.resolve(opts.dataDir, 'pglite');
  if (dir) mkdirSync(dir, { recursive: true });
  // Keep NUMERIC and BIGINT as text, as on PostgreSQL: money never passes through a float.
  const parsers = { 1700: (v: string) => v, 20: (v: string) => v };
  // pg_trgm: the admin user list's part-of-a-word search (migration 0017), as on PostgreSQL.
  // One options object: `new PGlite(undefined, options)` (memory://) would drop the options.
  const client = new PGlite({ dataDir: dir, parsers, extensions: { pg_trgm } });
  await client.waitReady;
  const lite = drizzlePglite(client, { schema });
  await migratePglite(lite, { migrationsFolder: MIGRATIONS_DIR });
  // The one cast of the handle: PGlite's Drizzle database has every method the app calls with the same
  // shapes as node-postgres's (`execute` answers `{rows}`), but a different result type parameter.
  return {
    db: lite as unknown as Db,
    readDb: lite as unknown as Db,
    kind: 'pglite',
    close: () => client.close(),
  };
}

/**
 * Runs `query` and returns its rows. On PostgreSQL it is a named prepared statement, parsed and planned
 * once per pooled connection (DESIGN §9), on the pool or inside a transaction (on the transaction's own
 * connection, so it joins it); on PGlite it is a plain query. `name` must always go with the same SQL
 * text. Errors are the driver's (SQLSTATE in `code`, or in `cause.code` through Drizzle).
 */
export async function queryNamed<R extends Record<string, unknown>>(
  db: DbOrTx,
  name: string,
  query: SQL,
): Promise<R[]> {
  return runPrepared<R>(db, query, () => name);
}

/**
 * Runs `query` as `queryNamed` does, named after its SQL text (a hash of it): for the read queries of
 * the busiest pages, whose text is built from filters. PostgreSQL then plans each shape once per
 * connection (after five runs, a generic plan when it is no worse) instead of on every request: planning
 * the member history's page cost more than running it. Only for queries whose texts come
 * from a bounded set of shapes (values always as parameters), since each connection keeps every one.
 */
export async function queryPlanned<R extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<R[]> {
  return runPrepared<R>(db, query, (text) => {
    let name = plannedNames.get(text);
    if (!name) {
      name = `p_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
      plannedNames.set(text, name);
    }
    return name;
  });
}

/**
 * Runs `query` as an unnamed statement, planned for its values on every run, and returns its rows: the
 * counterpart of `queryPlanned` for a statement whose best plan depends on its values (a search's page).
 */
export async function queryOnce<R extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<R[]> {
  const res = await db.execute<R>(query);
  return res.rows as R[];
}

/** The statement names of `queryPlanned`, by SQL text (the hash is taken once per text and process). */
const plannedNames = new LRUCache<string, string>({ max: 2_000 });

async function runPrepared<R extends Record<string, unknown>>(
  db: DbOrTx,
  query: SQL,
  nameOf: (text: string) => string,
): Promise<R[]> {
  // Drizzle keeps the connection (`session.client`) and `dialect` private: named statements need both.
  const handle = db as unknown as { $client?: unknown; session?: { client?: unknown }; dialect: PgDialect };
  // A transaction runs on one checked-out client (Drizzle keeps it on the transaction's session).
  const client = db instanceof PgTransaction ? handle.session?.client : handle.$client;
  if (client instanceof pg.Pool || client instanceof pg.Client) {
    const { sql: text, params } = handle.dialect.sqlToQuery(query);
    const name = unpreparedClients.has(client) ? undefined : nameOf(text);
    const res = await client.query<R>({ name, text, values: params });
    return res.rows;
  }
  return queryOnce<R>(db, query);
}
