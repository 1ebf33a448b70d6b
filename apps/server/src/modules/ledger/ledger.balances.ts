/**
 * The ledger's balance protocol, first half (DESIGN §4, §9): a batch locks and reads every balance row
 * it can touch, in the one global lock order (user id, then currency id), and works on those amounts in
 * memory while it checks its requests one by one. `ledger.posting.ts` then writes what it accepted.
 * Bank transfers and exchange orders use it as it is; forge, store and chips will too.
 */
import { type Amount, fromNumeric } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryNamed, type Tx } from '../../db/client.ts';
import { pgArray } from '../../db/pg-array.ts';
import type { Entry } from './ledger.entry.ts';

/**
 * The global lock order of balance rows (DESIGN §4): user id, then currency id. Every statement that
 * locks balance rows takes them in this order (`lockBalances` in SQL, the posting's upsert through
 * this comparator), so two batches never wait on each other in a cycle.
 */
export function byLockOrder(
  a: { userId: string; currencyId: number },
  b: { userId: string; currencyId: number },
): number {
  return a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : a.currencyId - b.currencyId;
}

/** The key of one balance, a (user, currency) pair, in a batch's maps. */
export function balanceKey(userId: string, currencyId: number): string {
  return `${userId}:${currencyId}`;
}

/**
 * A batch's working balances (Amount, 10^-9 units): the locked rows as read, then moved by each entry
 * the batch accepted, so a later request of the batch sees what the earlier ones left. A balance with no
 * row is 0. Never written to the database: `postEntries` does that.
 */
export class BatchBalances {
  private readonly amounts = new Map<string, Amount>();

  constructor(rows: Iterable<{ userId: string; currencyId: number; amount: Amount }> = []) {
    for (const r of rows) this.amounts.set(balanceKey(r.userId, r.currencyId), r.amount);
  }

  /** What `userId` holds of `currencyId` now (0 without a row). */
  of(userId: string, currencyId: number): Amount {
    return this.amounts.get(balanceKey(userId, currencyId)) ?? (0n as Amount);
  }

  /** True when `userId` holds at least `amount` of `currencyId` now. */
  covers(userId: string, currencyId: number, amount: Amount): boolean {
    return this.of(userId, currencyId) >= amount;
  }

  /** Moves `entry.amount` from its sender to its recipient (a null side, the system or escrow, holds nothing). */
  apply(entry: Entry): void {
    this.move(entry.senderId, entry.currencyId, -entry.amount);
    this.move(entry.recipientId, entry.currencyId, entry.amount);
  }

  private move(userId: string | null, currencyId: number, delta: bigint): void {
    if (userId !== null)
      this.amounts.set(balanceKey(userId, currencyId), (this.of(userId, currencyId) + delta) as Amount);
  }
}

/** What a batch can touch, and what else the caller reads in the same statement (see `lockBalances`). */
export interface LockScope {
  /** The caller's CTEs (`name AS (...)`, comma-separated) that the other parts may read; not `locked`. */
  ctes?: SQL;
  /** The user ids known before the statement (the batch's members, a sale's account). */
  userIds: readonly string[];
  /**
   * Queries of one column each, over the caller's CTEs, yielding more user ids the batch can touch (a
   * recipient found by nickname, a tax or fee collector, a resting order's owner); nulls are ignored.
   */
  moreUserIds?: readonly SQL[];
  /** The currency ids known before the statement. */
  currencyIds?: readonly number[];
  /** Queries of one column each, over the caller's CTEs, yielding more currency ids. */
  moreCurrencyIds?: readonly SQL[];
  /**
   * Queries of two columns each (user id, currency id), over the caller's CTEs: balance rows the batch
   * can touch besides every user above in every currency above (a batch over several exchange pairs
   * touches each pair's traders in that pair's currencies only); nulls are ignored.
   */
  moreBalances?: readonly SQL[];
  /** The caller's columns of the statement's row, after `locked_balances`. */
  columns?: SQL;
  /** The caller's FROM clause: when it yields no row, nothing is locked and `lockBalances` answers null. */
  from?: SQL;
}

/**
 * The union of known ids (one array parameter) and the caller's queries, each cast to `type`: the ledger
 * writes the casts, since a `text` user id would compare as `user_id::text` and scan every holder of a
 * currency instead of using the primary key.
 */
function idsQuery(known: readonly (string | number)[], more: readonly SQL[], type: 'bpchar' | 'int'): SQL {
  const parts = [
    sql`SELECT unnest(${pgArray(known)}::${sql.raw(type)}[])`,
    ...more.map((q) => sql`SELECT m.id::${sql.raw(type)} FROM (${q}) m(id)`),
  ];
  return sql.join(parts, sql` UNION ALL `);
}

/**
 * Locks and reads, in the caller's transaction `tx` and ONE statement, every balance row of the users
 * `scope.userIds` in the currencies `scope.currencyIds`, taking the row locks in the global order of
 * DESIGN §4 (user id, then currency id) so that concurrent batches cannot deadlock; the funds read then
 * stay there until the batch posts, and its posting waits for no one. The caller's own reads (`ctes`,
 * `columns`, `from`) ride in the same statement, so a batch pays one round trip (DESIGN §9).
 *
 * A balance row that does not exist yet (a first credit: a new member, a new tax or fee collector) is
 * opened first, at 0, in the same order and the same statement, before any existing row is locked: a row
 * first inserted by the posting, after the locks, was taken out of order and concurrent first credits of
 * one account deadlocked. Every transaction so takes its new rows, then its existing ones, each in order,
 * and no two can wait on each other in a cycle. An existing row is passed over by the insert's own check
 * of the primary key (ON CONFLICT DO NOTHING writes nothing for it): a NOT EXISTS before it was planned,
 * in a batch's generic plan made while `balances` was small, as a scan of the currency's holders for every
 * row, most of the statement's work. A row another transaction opened and committed after this statement's
 * snapshot fails the statement's transaction with `RacedBalanceRows` (40001), retried by `inTransaction`
 * (once per new row at most). The rows are locked one by one from the ordered pairs (a LATERAL lookup by
 * primary key): with the pairs as `IN` subqueries over the caller's CTEs, a row another transaction had
 * just updated was re-checked without them and skipped, so it went unlocked (and was then taken out of
 * order by the posting).
 *
 * `name` names the prepared statement: same name, same SQL. Returns the batch's working balances and the
 * statement's rows (the caller's columns, one per row of `from`; `row` is the first), or null when `from`
 * yields no row (nothing is then opened or locked).
 */
export async function lockBalances<R extends Record<string, unknown>>(
  tx: Tx,
  name: string,
  scope: LockScope,
): Promise<{ balances: BatchBalances; row: R; rows: R[] } | null> {
  type Pair = { u: string; c: number };
  const rows = await queryNamed<
    R & { locked_balances: Array<Pair & { a: string }> | null; raced_balances: Pair[] | null }
  >(
    tx,
    name,
    sql`
    WITH ${scope.ctes ? sql`${scope.ctes},` : sql``}
    go AS MATERIALIZED (SELECT EXISTS (SELECT 1 ${scope.from ?? sql``}) AS go),
    wanted AS MATERIALIZED (
      SELECT DISTINCT w.u, w.c FROM (
        SELECT wu.u, wc.c
        FROM (${idsQuery(scope.userIds, scope.moreUserIds ?? [], 'bpchar')}) wu(u)
        CROSS JOIN (${idsQuery(scope.currencyIds ?? [], scope.moreCurrencyIds ?? [], 'int')}) wc(c)
        ${sql.join(
          (scope.moreBalances ?? []).map((q) => sql` UNION ALL SELECT m.u::bpchar, m.c::int FROM (${q}) m(u, c)`),
          sql``,
        )}) w
      WHERE w.u IS NOT NULL AND w.c IS NOT NULL AND (SELECT go FROM go)),
    opened AS (
      INSERT INTO balances (user_id, currency_id, amount)
      SELECT w.u, w.c, 0 FROM wanted w
      ORDER BY w.u, w.c
      ON CONFLICT (user_id, currency_id) DO NOTHING
      RETURNING user_id, currency_id),
    locked AS MATERIALIZED (
      SELECT l.user_id, l.currency_id, l.amount
      FROM (SELECT u, c FROM wanted WHERE (SELECT count(*) FROM opened) >= 0 ORDER BY u, c) w
      CROSS JOIN LATERAL (
        SELECT b.user_id, b.currency_id, b.amount FROM balances b
        WHERE b.user_id = w.u AND b.currency_id = w.c
        FOR UPDATE) l)
    SELECT
      (SELECT json_agg(json_build_object('u', l.user_id, 'c', l.currency_id, 'a', l.amount::text)) FROM locked l)
        AS locked_balances,
      (SELECT json_agg(json_build_object('u', w.u, 'c', w.c)) FROM wanted w
        WHERE NOT EXISTS (SELECT 1 FROM locked l WHERE l.user_id = w.u AND l.currency_id = w.c)
          AND NOT EXISTS (SELECT 1 FROM opened o WHERE o.user_id = w.u AND o.currency_id = w.c))
        AS raced_balances${scope.columns ? sql`, ${scope.columns}` : sql``}
    ${scope.from ?? sql``}`,
  );
  const [row] = rows;
  if (!row) return null;
  const amounts = (row.locked_balances ?? []).map((b) => ({
    userId: b.u,
    currencyId: Number(b.c),
    amount: fromNumeric(String(b.a)),
  }));
  // A row another transaction opened and committed after this statement's snapshot: it was neither
  // locked nor opened here, and locking it now would take it out of order. The transaction starts again
  // (inTransaction retries 40001); its next snapshot sees the row and locks it in order.
  if ((row.raced_balances ?? []).length > 0) throw new RacedBalanceRows();
  return { balances: new BatchBalances(amounts), row, rows };
}

/**
 * A serialization failure (SQLSTATE 40001, which `inTransaction` retries): balance rows a batch must lock
 * were opened by a concurrent transaction after its lock statement's snapshot (`lockBalances`).
 */
export class RacedBalanceRows extends Error {
  readonly code = '40001';
  constructor() {
    super('balance rows were opened by a concurrent transaction: retry');
  }
}

/**
 * Makes sure `userId` has a balance row (amount 0 when new) in each of `currencyIds`, without changing
 * any amount. `lockBalances` opens missing rows itself; this opens one ahead of time, where a row should
 * exist from the start (the synth chip sale's Credits, made with the sale), so its first buyers do not
 * all race to open it and restart.
 */
export async function openBalanceRows(db: DbOrTx, userId: string, currencyIds: readonly number[]): Promise<void> {
  await db.execute(sql`
    INSERT INTO balances (user_id, currency_id, amount)
    SELECT ${userId}, c, 0 FROM unnest(${pgArray([...currencyIds])}::int[]) AS c
    ON CONFLICT (user_id, currency_id) DO NOTHING`);
}
