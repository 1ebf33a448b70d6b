/**
 * What every part of `make scale-seed` shares: the connection, the seed's SQL helpers (member ids and
 * times from a member's number, time-ordered object ids), the ledger insert, the saving and rebuilding
 * of the big tables' indexes, and the runner that spreads the parts over two connections with a
 * progress line every 10 seconds.
 */
import pg from 'pg';
import type { ScalePlan } from './scale-seed.config.ts';

/** One database session: a single statement per call, rows back. */
export interface Conn {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
}

/** What the parts know of the community being made. Times are Unix seconds. */
export interface SeedContext {
  plan: ScalePlan;
  /** SCALE_MEMBERS. */
  n: number;
  /** The seed's "now" and the start of the two years of history. */
  now: number;
  t0: number;
  adminId: string;
  adminNickname: string;
  saleId: string;
  chipCurrencyId: number;
  shipsCollectionId: string;
}

/** The scratch schema holding the seed's SQL functions and staging tables; dropped at the end. */
export const S = 'scale_seed';

/** The exponent of the growth curve: member k joined at t0 + span * ((k-1)/n)^GROWTH (a growing community). */
const GROWTH = 0.6;
/** Two years of history. */
export const SPAN_SECONDS = 730 * 86_400;

/**
 * The currencies members are funded in, by the residue of their number mod 20 (1..20): a member k =
 * 20j + r holds currency c from the start when r is in FUNDED[c]. Only funded members ever pay in c,
 * so every debit is covered by the member's funding row (see scale-seed.ledger.ts). Residue 20 is the
 * wallet-only members, 1 is in every set (member1 holds everything).
 */
export const FUNDED: Record<number, number[]> = {
  1: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
  2: [1, 2, 3, 4, 5, 15, 16, 17],
  3: [1, 6, 7, 8, 18, 19],
  5: [1, 9, 10],
  6: [1, 11, 12],
};

/** SQL literal of a JS string. */
export const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;
/** SQL timestamptz of Unix seconds. */
export const ts = (secs: number) => `to_timestamp(${secs})`;

/**
 * Creates the scratch schema and its functions (all IMMUTABLE and inlined by the planner):
 * - `uid(k)`: member k's id, 24 hex in ObjectId layout from the member's joining second;
 * - `created(k)`: when member k joined; `k_at(t)`: how many members had joined at t;
 * - `oid(tag, t, n)`: an object id of time t, a 2-hex tag per part and a unique number n;
 * - `pick(c, t, u, v)`: a member funded in currency c who had joined at t, older members more often
 *   (u, v uniform in [0, 1)); `anyone(t, u)`: any member who had joined at t.
 */
export async function createHelpers(conn: Conn, ctx: SeedContext): Promise<void> {
  const { n, t0 } = ctx;
  const sets = Object.entries(FUNDED)
    .map(([c, rs]) => `WHEN ${c} THEN '{${rs.join(',')}}'::int[]`)
    .join(' ');
  const statements = [
    `DROP SCHEMA IF EXISTS ${S} CASCADE`,
    `CREATE SCHEMA ${S}`,
    `CREATE FUNCTION ${S}.secs(k bigint) RETURNS bigint LANGUAGE sql STABLE PARALLEL SAFE AS
       $$ SELECT floor(${t0} + ${SPAN_SECONDS} * power((k - 1)::float8 / ${n}, ${GROWTH}))::bigint $$`,
    `CREATE FUNCTION ${S}.created(k bigint) RETURNS timestamptz LANGUAGE sql STABLE PARALLEL SAFE AS
       $$ SELECT to_timestamp(${t0} + ${SPAN_SECONDS} * power((k - 1)::float8 / ${n}, ${GROWTH})) $$`,
    `CREATE FUNCTION ${S}.uid(k bigint) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS
       $$ SELECT lpad(to_hex(${S}.secs(k)), 8, '0') || 'a0' || lpad(to_hex(k), 14, '0') $$`,
    `CREATE FUNCTION ${S}.k_at(t timestamptz) RETURNS bigint LANGUAGE sql STABLE PARALLEL SAFE AS
       $$ SELECT least(${n}, greatest(1, floor(${n} * power(greatest(extract(epoch FROM t)::float8 - ${t0}, 0) / ${SPAN_SECONDS}, ${1 / GROWTH}))))::bigint $$`,
    `CREATE FUNCTION ${S}.oid(tag text, t timestamptz, n bigint) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS
       $$ SELECT lpad(to_hex(floor(extract(epoch FROM t))::bigint), 8, '0') || tag || lpad(to_hex(n), 14, '0') $$`,
    `CREATE FUNCTION ${S}.fset(c int) RETURNS int[] LANGUAGE sql STABLE PARALLEL SAFE AS
       $$ SELECT CASE c ${sets} ELSE '{1}'::int[] END $$`,
    `CREATE FUNCTION ${S}.pick(c int, t timestamptz, u float8, v float8) RETURNS bigint LANGUAGE sql STABLE PARALLEL SAFE AS
       $$ SELECT 20 * floor((greatest(${S}.k_at(t) - 20, 0) / 20 + 1) * power(u, 2))::bigint
                 + (${S}.fset(c))[1 + floor(v * cardinality(${S}.fset(c)))::int] $$`,
    `CREATE FUNCTION ${S}.anyone(t timestamptz, u float8) RETURNS bigint LANGUAGE sql STABLE PARALLEL SAFE AS
       $$ SELECT 1 + floor(${S}.k_at(t) * power(u, 1.5))::bigint $$`,
    // A heavy-tailed positive amount (Pareto, shape 1.3) of at least `low`, in cents, capped.
    `CREATE FUNCTION ${S}.heavy(low numeric, u float8, cap numeric) RETURNS numeric LANGUAGE sql STABLE PARALLEL SAFE AS
       $$ SELECT least(cap, round((low / power(greatest(u, 1e-9), 1 / 1.3))::numeric, 2)) $$`,
    // A plausible public IPv4 address from a number.
    `CREATE FUNCTION ${S}.ip(x bigint) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS
       $$ SELECT (11 + x % 180) || '.' || ((x / 180) % 256) || '.' || ((x / 46080) % 256) || '.' || (1 + (x / 11796480) % 254) $$`,
  ];
  statements.push(
    // The ledger is written here first (no WAL, no index), then moved in id order (see `moveLedger`).
    `CREATE UNLOGGED TABLE ${S}.ledger (id text, created_at timestamptz, category int, currency_id int, amount numeric,
       executor_id text, sender_id text, recipient_id text, escrow boolean, note text, reference text)`,
  );
  for (const s of statements) await conn.query(s);
}

/** The columns of a ledger row, in the order the generators' SELECTs give them. */
export const LEDGER_COLUMNS =
  '(id, created_at, category, currency_id, amount, executor_id, sender_id, recipient_id, escrow, note, reference)';

/** `INSERT INTO <the staged ledger> … <select>`: the select gives LEDGER_COLUMNS in order. */
export function ledgerInsert(select: string): string {
  return `INSERT INTO ${S}.ledger ${LEDGER_COLUMNS} ${select}`;
}

/**
 * Moves the staged ledger into `bank_transactions` in id order (ids follow time), as a ledger written
 * over two years lies: the table's pages in time order, and its primary key built from sorted input.
 */
export async function moveLedger(conn: Conn): Promise<void> {
  await conn.query(`INSERT INTO bank_transactions ${LEDGER_COLUMNS} SELECT * FROM ${S}.ledger ORDER BY id COLLATE "C"`);
}

/** The big tables: their indexes are dropped before the load and rebuilt after. */
export const BIG_TABLES = [
  'users',
  'balances',
  'bank_transactions',
  'exchange_orders',
  'exchange_trades',
  'forge_processes',
  'checkout_transactions',
  'checkout_events',
  'items',
  'access_logs',
  'admin_logs',
  'settlements',
  'notifications',
  'market_listings',
];
/** The tables whose row counts a run reports. */
export const COUNTED_TABLES = [
  'users',
  'balances',
  'bank_transactions',
  'exchange_orders',
  'exchange_trades',
  'forge_recipes',
  'forge_processes',
  'checkout_transactions',
  'checkout_events',
  'item_collections',
  'items',
  'access_logs',
  'admin_logs',
  'settlements',
  'notifications',
  'broadcasts',
  'market_listings',
];

/** Tables other tables' foreign keys point at: their primary key stays (rows go in in id order). */
const KEEP_PRIMARY_KEY = new Set(['users', 'exchange_orders', 'checkout_transactions']);

/** An index saved before the load: its exact definition, and the primary key it backs if any. */
export interface SavedIndex {
  table: string;
  name: string;
  def: string;
  primaryKey: boolean;
}

/**
 * Drops the big tables' indexes (primary keys too, except those foreign keys point at) and returns
 * their `pg_indexes.indexdef`, so `restoreIndexes` makes exactly the same ones again.
 */
export async function dropIndexes(conn: Conn): Promise<SavedIndex[]> {
  const rows = await conn.query<{ table: string; name: string; def: string; pk: boolean }>(
    `SELECT i.tablename AS table, i.indexname AS name, i.indexdef AS def,
            EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass AND c.contype = 'p') AS pk
       FROM pg_indexes i
      WHERE i.schemaname = 'public' AND i.tablename = ANY($1::text[])
      ORDER BY i.tablename, i.indexname`,
    [BIG_TABLES],
  );
  const saved: SavedIndex[] = [];
  for (const r of rows) {
    if (r.pk && KEEP_PRIMARY_KEY.has(r.table)) continue;
    if (r.pk) await conn.query(`ALTER TABLE ${r.table} DROP CONSTRAINT ${r.name}`);
    else await conn.query(`DROP INDEX ${r.name}`);
    saved.push({ table: r.table, name: r.name, def: r.def, primaryKey: r.pk });
  }
  return saved;
}

/** The statements that make one saved index again (a primary key is its unique index, then the constraint). */
export function restoreStatements(ix: SavedIndex): string[] {
  if (!ix.primaryKey) return [ix.def];
  return [ix.def, `ALTER TABLE ${ix.table} ADD CONSTRAINT ${ix.name} PRIMARY KEY USING INDEX ${ix.name}`];
}

/** Progress and timings: a line every 10 seconds while parts run, and each part's time at the end. */
export class Progress {
  private readonly started = Date.now();
  private readonly running = new Map<string, number>();
  readonly timings: Array<{ name: string; seconds: number }> = [];
  private timer: NodeJS.Timeout | undefined;

  private readonly log: (line: string) => void;

  constructor(log: (line: string) => void) {
    this.log = log;
  }

  /** Prints a line now and every `everyMs` (10 s) until `stop`. */
  start(everyMs = 10_000): void {
    this.timer = setInterval(() => this.tick(), everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Seconds since the start, as m:ss. */
  clock(): string {
    const s = Math.round((Date.now() - this.started) / 1000);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  }

  private tick(): void {
    const parts = [...this.running.entries()].map(([n, t]) => `${n} (${Math.round((Date.now() - t) / 1000)} s)`);
    this.log(`[scale-seed ${this.clock()}] working on: ${parts.join(', ') || 'between parts'}`);
  }

  /** Runs `work` as the part `name`, timing it. */
  async part<T>(name: string, work: () => Promise<T>): Promise<T> {
    const t = Date.now();
    this.running.set(name, t);
    this.log(`[scale-seed ${this.clock()}] ${name}…`);
    try {
      return await work();
    } finally {
      this.running.delete(name);
      const seconds = (Date.now() - t) / 1000;
      this.timings.push({ name, seconds });
      this.log(`[scale-seed ${this.clock()}] ${name} done in ${seconds.toFixed(1)} s`);
    }
  }
}

/** A part of the seed: it runs on one connection once the parts it names in `after` are done. */
export interface Task {
  name: string;
  after?: string[];
  run(conn: Conn): Promise<void>;
}

/**
 * Runs `tasks` on `conns` (one task per connection at a time, each as soon as what it waits for is
 * done), timing each through `progress`. Rejects with the first failure once the running ones end.
 */
export async function runTasks(tasks: Task[], conns: Conn[], progress: Progress): Promise<void> {
  const names = new Set(tasks.map((t) => t.name));
  for (const t of tasks) {
    const unknown = (t.after ?? []).filter((d) => !names.has(d));
    if (unknown.length > 0) throw new Error(`part ${t.name} waits for unknown parts: ${unknown.join(', ')}`);
  }
  const done = new Set<string>();
  const pending = [...tasks];
  let failure: unknown;
  const ready = () => pending.findIndex((t) => (t.after ?? []).every((d) => done.has(d)));
  const worker = async (conn: Conn) => {
    for (;;) {
      if (failure) return;
      const i = ready();
      if (i < 0) {
        if (pending.length === 0) return;
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      const [task] = pending.splice(i, 1);
      if (!task) continue;
      try {
        await progress.part(task.name, () => task.run(conn));
        done.add(task.name);
      } catch (err) {
        failure ??= err;
        return;
      }
    }
  };
  await Promise.all(conns.map(worker));
  if (failure) throw failure;
}

/** The tables the app keeps beside its own and the seed rebuilds after the load (rollup, candles, stats, ranking). */
export const KEPT_TABLES = [
  'ledger_rollup',
  'ledger_rollup_state',
  'ledger_audit_baseline',
  'trade_candles',
  'trade_candles_state',
  'user_stats_daily',
  'user_stats_hourly',
  'user_holdings',
  'access_log_counts',
  'leaderboard_entries',
  'leaderboard_blocks',
  'leaderboard_state',
  'market_open_counts',
];

/**
 * `VACUUM (ANALYZE)` of the public tables (only those of `only` when given), biggest first, one table per
 * connection at a time over `conns`: on two cores the big tables go about twice as fast as one statement
 * for the whole database. Tables under 64 MB go together in one statement.
 */
export async function vacuumTables(conns: Conn[], progress: Progress, only?: readonly string[]): Promise<void> {
  const [c1] = conns;
  if (!c1) throw new Error('no session');
  const tables = await c1.query<{ t: string; b: string }>(
    `SELECT relname AS t, pg_total_relation_size(oid)::text AS b FROM pg_class
      WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND ($1::text[] IS NULL OR relname = ANY($1::text[]))
      ORDER BY pg_total_relation_size(oid) DESC`,
    [only ? [...only] : null],
  );
  const big = tables.filter((r) => Number(r.b) >= 64 * 1024 * 1024).map((r) => r.t);
  const small = tables.filter((r) => Number(r.b) < 64 * 1024 * 1024).map((r) => `"${r.t}"`);
  const vacuum = (list: string) => async (c: Conn) => void (await c.query(`VACUUM (ANALYZE) ${list}`));
  const tasks: Task[] = big.map((t) => ({ name: `vacuum ${t}`, run: vacuum(`"${t}"`) }));
  if (small.length > 0) tasks.push({ name: `vacuum ${small.length} smaller tables`, run: vacuum(small.join(', ')) });
  await runTasks(tasks, conns, progress);
}

/**
 * Creates the PostgreSQL database `url` names when it does not exist yet (PostgreSQL answers 3D000),
 * through the server's `postgres` database, and logs it; any other connection error is thrown as is.
 */
export async function ensureDatabase(url: string, log: (line: string) => void): Promise<void> {
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return;
  } catch (err) {
    if ((err as { code?: string }).code !== '3D000') throw err;
  } finally {
    await probe.end().catch(() => {});
  }
  const server = new URL(url);
  const name = decodeURIComponent(server.pathname.slice(1));
  server.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  log(`[scale-seed] created the database ${name}`);
}
