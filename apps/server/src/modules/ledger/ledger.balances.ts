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
import type { Entry } from './ledger.posting.ts';

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
  /**
   * A query of the user ids whose balance rows the batch can touch (nulls are ignored), typed `bpchar`
   * like `balances.user_id` (`unnest($1::bpchar[])`): as `text` PostgreSQL compares `user_id::text` and
   * scans every holder of the currency instead of using the primary key.
   */
  userIds: SQL;
  /** A query of the currency ids the batch can touch. */
  currencyIds: SQL;
  /** The caller's columns of the statement's row, after `locked_balances`. */
  columns?: SQL;
  /** The caller's FROM clause: when it yields no row, nothing is locked and `lockBalances` answers null. */
  from?: SQL;
}

/**
 * Locks and reads, in the caller's transaction `tx` and ONE statement, every existing balance row of
 * the users `scope.userIds` in the currencies `scope.currencyIds`, taking the row locks in the global
 * order of DESIGN §4 (user id, then currency id) so that concurrent batches cannot deadlock; the funds
 * read then stay there until the batch posts, and its posting waits for no one. The caller's own reads
 * (`ctes`, `columns`, `from`) ride in the same statement, so a batch pays one round trip (DESIGN §9).
 * `name` names the prepared statement: same name, same SQL. Returns the batch's working balances and the
 * statement's row (the caller's columns), or null when `from` yields no row.
 */
export async function lockBalances<R extends Record<string, unknown>>(
  tx: Tx,
  name: string,
  scope: LockScope,
): Promise<{ balances: BatchBalances; row: R } | null> {
  const [row] = await queryNamed<R & { locked_balances: Array<{ u: string; c: number; a: string }> | null }>(
    tx,
    name,
    sql`
    WITH ${scope.ctes ? sql`${scope.ctes},` : sql``}
    locked AS MATERIALIZED (
      SELECT b.user_id, b.currency_id, b.amount FROM balances b
      WHERE b.currency_id IN (${scope.currencyIds}) AND b.user_id IN (${scope.userIds})
      ORDER BY b.user_id, b.currency_id
      FOR UPDATE)
    SELECT
      (SELECT json_agg(json_build_object('u', l.user_id, 'c', l.currency_id, 'a', l.amount::text)) FROM locked l)
        AS locked_balances${scope.columns ? sql`, ${scope.columns}` : sql``}
    ${scope.from ?? sql``}`,
  );
  if (!row) return null;
  const balances = new BatchBalances(
    (row.locked_balances ?? []).map((b) => ({
      userId: b.u,
      currencyId: Number(b.c),
      amount: fromNumeric(String(b.a)),
    })),
  );
  return { balances, row };
}

/**
 * Makes sure `userId` has a balance row (amount 0 when new) in each of `currencyIds`, without changing
 * any amount. An account that many concurrent operations credit for the first time (the synth chip
 * sale's Credits) should have its row before they race: `lockBalances` can lock only rows that exist,
 * and concurrent first inserts of one row by the posting statement deadlocked (40P01) under load.
 */
export async function openBalanceRows(db: DbOrTx, userId: string, currencyIds: readonly number[]): Promise<void> {
  await db.execute(sql`
    INSERT INTO balances (user_id, currency_id, amount)
    SELECT ${userId}, c, 0 FROM unnest(${pgArray([...currencyIds])}::int[]) AS c
    ON CONFLICT (user_id, currency_id) DO NOTHING`);
}
