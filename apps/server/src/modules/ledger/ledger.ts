/**
 * The ledger (DESIGN §4, STYLE layout): the only code that changes a balance or writes
 * `bank_transactions`. Every other module posts its movements here, inside its own transaction.
 */
import { type Amount, AppError, formatAmount, fromNumeric } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryNamed, type Tx } from '../../db/client.ts';
import { pgArray } from '../../db/pg-array.ts';
import { newObjectId } from '../../lib/ids.ts';

/** One movement of money: a ledger row. `senderId`/`recipientId` null = the system (or escrow). */
export interface Entry {
  category: number;
  currencyId: number;
  /** Positive Amount in 10^-9 units. */
  amount: Amount;
  executorId: string | null;
  senderId: string | null;
  recipientId: string | null;
  /** True when the null side is escrow held for `reference` rather than the system (DESIGN §4). */
  escrow?: boolean;
  note?: string;
  reference?: string | null;
}

/** PostgreSQL's check_violation on `balances_amount_nonnegative`: someone would go below zero. */
function isInsufficientFunds(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const c = e.cause ?? e;
  return c.code === '23514' && c.constraint === 'balances_amount_nonnegative';
}

/** Balance deltas of `entries` per (user, currency), in the global lock order: user id, then currency id. */
function sortedDeltas(entries: readonly Entry[]): Array<{ userId: string; currencyId: number; delta: bigint }> {
  const deltas = new Map<string, { userId: string; currencyId: number; delta: bigint }>();
  const touch = (userId: string | null, currencyId: number, delta: bigint) => {
    if (userId === null) return;
    const key = `${userId}:${currencyId}`;
    const d = deltas.get(key) ?? { userId, currencyId, delta: 0n };
    d.delta += delta;
    deltas.set(key, d);
  };
  for (const e of entries) {
    if (e.amount <= 0n) throw new Error('Ledger entries carry a positive amount');
    touch(e.senderId, e.currencyId, -e.amount);
    touch(e.recipientId, e.currencyId, e.amount);
  }
  return [...deltas.values()].sort((a, b) =>
    a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : a.currencyId - b.currencyId,
  );
}

/**
 * The CTEs that post `entries` in one statement (`ok`, `led`, `up`): the SQL text is the same for
 * any entries (they travel as array parameters), so it can be a named prepared statement.
 * - `ok`: false when a debit hits a (user, currency) with no balance row: that member holds nothing
 *   of it. Balance rows are never deleted, so what the statement's snapshot sees stays true, and
 *   nothing is written then.
 * - `up`: one upsert applies every balance change, rows locked in user id, then currency id order
 *   (so concurrent posts cannot deadlock). CHECK constraints are evaluated on the proposed row before
 *   ON CONFLICT, so the proposed row carries greatest(delta, 0) and the real delta is applied in DO
 *   UPDATE, where `balances_amount_nonnegative` refuses an overdraft and fails the whole statement.
 * - `led`: the ledger rows, in the same statement, so they cannot exist without the balance change.
 */
function postingCtes(entries: readonly Entry[]): SQL {
  const sorted = sortedDeltas(entries);
  const col = (f: (e: Entry) => string | number | boolean | null) => pgArray(entries.map(f));
  return sql`
    WITH v(u, c, d, n) AS (
      SELECT * FROM unnest(
        ${pgArray(sorted.map((s) => s.userId))}::text[],
        ${pgArray(sorted.map((s) => s.currencyId))}::int[],
        ${pgArray(sorted.map((s) => formatAmount(s.delta)))}::numeric[]
      ) WITH ORDINALITY),
    ok AS (
      SELECT NOT EXISTS (
        SELECT 1 FROM v WHERE v.d < 0
          AND NOT EXISTS (SELECT 1 FROM balances x WHERE x.user_id = v.u AND x.currency_id = v.c)) AS ok),
    led AS (
      INSERT INTO bank_transactions
        (id, category, currency_id, amount, executor_id, sender_id, recipient_id, escrow, note, reference)
      SELECT * FROM unnest(
        ${col(() => newObjectId())}::text[],
        ${col((e) => e.category)}::int[],
        ${col((e) => e.currencyId)}::int[],
        ${col((e) => formatAmount(e.amount))}::numeric[],
        ${col((e) => e.executorId)}::text[],
        ${col((e) => e.senderId)}::text[],
        ${col((e) => e.recipientId)}::text[],
        ${col((e) => e.escrow ?? false)}::bool[],
        ${col((e) => e.note ?? '')}::text[],
        ${col((e) => e.reference ?? null)}::text[]
      ) WHERE (SELECT ok FROM ok)
      RETURNING 1),
    up AS (
      INSERT INTO balances AS b (user_id, currency_id, amount)
      SELECT u, c, greatest(d, 0) FROM v WHERE (SELECT ok FROM ok) ORDER BY n
      ON CONFLICT (user_id, currency_id) DO UPDATE
        SET amount = b.amount + (SELECT v.d FROM v WHERE v.u = EXCLUDED.user_id AND v.c = EXCLUDED.currency_id)
      RETURNING user_id, currency_id, amount)`;
}

/** Runs a posting statement, mapping a refused debit (no row, or the CHECK) to `Insufficient funds`. */
async function runPosting<R extends { ok: boolean }>(db: DbOrTx, name: string, query: SQL): Promise<R> {
  let row: R | undefined;
  try {
    [row] = await queryNamed<R>(db, name, query);
  } catch (err) {
    if (isInsufficientFunds(err)) throw new AppError('CONFLICT', 'Insufficient funds');
    throw err;
  }
  if (!row) throw new Error('The posting statement returned no row');
  if (!row.ok) throw new AppError('CONFLICT', 'Insufficient funds');
  return row;
}

/**
 * Posts `entries` in the caller's transaction `tx` as one statement (ledger rows and balance changes,
 * see `postingCtes`). Returns the new balances touched, keyed `${userId}:${currencyId}` (Amount,
 * 10^-9 units). Throws AppError CONFLICT `Insufficient funds` when a balance would fall below zero;
 * nothing is written then, and AppError rolls the caller's transaction back (DESIGN §4).
 */
export async function postEntries(tx: DbOrTx, entries: readonly Entry[]): Promise<Map<string, Amount>> {
  const result = new Map<string, Amount>();
  if (entries.length === 0) return result;
  const row = await runPosting<{ ok: boolean; changed: Array<{ u: string; c: number; a: string }> | null }>(
    tx,
    'ledger_post',
    sql`${postingCtes(entries)}
      SELECT (SELECT ok FROM ok) AS ok,
        (SELECT json_agg(json_build_object('u', user_id, 'c', currency_id, 'a', amount::text)) FROM up) AS changed`,
  );
  for (const r of row.changed ?? []) result.set(`${r.u}:${r.c}`, fromNumeric(r.a));
  return result;
}

/**
 * Posts `entries` and runs the caller's own writes in the same single statement: one round trip for a
 * whole business operation (the exchange's order, fills and trades with their money, DESIGN §5 and §9).
 * `along.ctes` continues the WITH list after the ledger's CTEs (`name AS (...)`, comma-separated) and
 * `along.columns` adds columns to the statement's one row, which is returned. Balance changes are netted
 * per (user, currency) before they apply, so a caller whose entries debit and credit one balance must
 * check that the debit alone was covered (the exchange locks and reads that balance first).
 * Only inside a transaction: on `Insufficient funds` (AppError CONFLICT) the caller's writes of this
 * statement are undone with the transaction. `name` names a prepared statement: same name, same SQL.
 */
export async function postEntriesAlong<R extends Record<string, unknown>>(
  tx: Tx,
  name: string,
  entries: readonly Entry[],
  along: { ctes: SQL; columns: SQL },
): Promise<R> {
  return runPosting<R & { ok: boolean }>(
    tx,
    name,
    sql`${postingCtes(entries)}, ${along.ctes}
      SELECT (SELECT ok FROM ok) AS ok, ${along.columns}`,
  );
}

/** An account as `postTransfer` reads it back: the `users` columns the wire's `User` shows. */
export interface PostedAccount {
  id: string;
  nickname: string;
  email: string | null;
  role: string;
  primaryWallet: string | null;
  isActive: boolean;
  isWalletOnly: boolean;
  isEmailVerified: boolean;
  isAnonymous: boolean;
  fame: number;
  createdAt: Date;
  updatedAt: Date;
}

/** An account as `postTransfers` reads it back, with its referrer's nickname and non-zero balances. */
export interface PostedAccountView {
  account: PostedAccount;
  referrerNickname: string | null;
  /** `amount` as numeric text, by currency id. */
  balances: Array<{ currencyId: number; amount: string }>;
}

/**
 * Posts transfer `entries` (DESIGN §4) and reads back the accounts `accountIds` in the same single
 * statement (in the caller's transaction, or as one atomic autocommit statement on the pool): an
 * account's balances after the post are the rows the post wrote (new ones included) and its other rows
 * as the statement's snapshot saw them. Returns each account by id. Throws AppError CONFLICT `Insufficient funds`
 * (nothing is written); Error when an account does not exist.
 */
export async function postTransfers(
  db: DbOrTx,
  entries: readonly Entry[],
  accountIds: readonly string[],
): Promise<Map<string, PostedAccountView>> {
  const row = await runPosting<{
    ok: boolean;
    accounts: Array<{
      account: PostedAccount;
      referrer_nickname: string | null;
      bals: Array<{ currencyId: number; amount: string }> | null;
    }> | null;
  }>(
    db,
    'ledger_post_transfers',
    sql`${postingCtes(entries)}
      SELECT (SELECT ok FROM ok) AS ok,
        (SELECT json_agg(json_build_object(
          'account', json_build_object('id', u.id, 'nickname', u.nickname, 'email', u.email, 'role', u.role,
            'primaryWallet', u.primary_wallet, 'isActive', u.is_active, 'isWalletOnly', u.is_wallet_only,
            'isEmailVerified', u.is_email_verified, 'isAnonymous', u.is_anonymous, 'fame', u.fame,
            'createdAt', u.created_at, 'updatedAt', u.updated_at),
          'referrer_nickname', r.nickname,
          'bals', (SELECT json_agg(json_build_object('currencyId', x.currency_id, 'amount', x.amount::text)
                                   ORDER BY x.currency_id)
                     FROM (SELECT p.currency_id, p.amount FROM up p WHERE p.user_id = u.id
                           UNION ALL
                           SELECT b.currency_id, b.amount FROM balances b
                            WHERE b.user_id = u.id AND NOT EXISTS (
                              SELECT 1 FROM up p WHERE p.user_id = b.user_id AND p.currency_id = b.currency_id)) x
                    WHERE x.amount > 0)))
          FROM users u LEFT JOIN users r ON r.id = u.referrer_id
         WHERE u.id = ANY(${pgArray(accountIds)}::text[])) AS accounts`,
  );
  const views = new Map<string, PostedAccountView>();
  for (const v of row.accounts ?? []) {
    const a = v.account;
    views.set(a.id, {
      account: { ...a, createdAt: new Date(a.createdAt), updatedAt: new Date(a.updatedAt) },
      referrerNickname: v.referrer_nickname,
      balances: (v.bals ?? []).map((b) => ({ currencyId: Number(b.currencyId), amount: String(b.amount) })),
    });
  }
  for (const id of accountIds) if (!views.has(id)) throw new Error(`postTransfers: no account ${id}`);
  return views;
}
