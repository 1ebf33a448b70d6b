/**
 * SQL of deposits and withdrawals (DESIGN §8): open, list, and settle once.
 * Reads other modules' tables: `users` (the nicknames a settlement shows and a filter names) and `currencies` (the bank's: each settlement's ticker and precision), joined in the list's one statement.
 */
import { formatAtPrecision, fromNumeric, type GetSettlementsRequest, type Settlement } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';
import { sqlErrorOf } from '../../db/errors.ts';
import { cappedTotal, pageSize, readWholeListPage, wholeTableTotal } from '../../db/paging.ts';
import { pgArray } from '../../db/pg-array.ts';
import { settlements } from '../../db/schema/index.ts';
import { newObjectId } from '../../lib/ids.ts';
import type { PostAlong } from '../ledger/ledger.public.ts';

/** A settlement row as the service works with it. */
export type SettlementRow = typeof settlements.$inferSelect;

/** Opens a settlement (pending) and returns its id. */
export async function insertSettlement(
  db: DbOrTx,
  values: {
    kind: 'deposit' | 'withdrawal';
    userId: string;
    currencyId: number;
    amount: string;
    tax: string;
    walletAddress: string;
    reference: string;
  },
): Promise<string> {
  const id = newObjectId();
  await db.insert(settlements).values({ id, ...values });
  return id;
}

/** A withdrawal to open: its id, member, currency, amount and tax (decimal strings in currency units), address. */
export interface WithdrawalRow {
  id: string;
  userId: string;
  currencyId: number;
  amount: string;
  tax: string;
  walletAddress: string;
}

/**
 * What a batch's posting also writes (`PostAlong`, the ledger's statement: DESIGN §9): the pending
 * withdrawal settlements of `rows`, only when the posting is written, so a batch costs one statement and
 * a refused posting leaves no settlement. Its column `withdrawals` is read by `openedWithdrawals`.
 */
export function withdrawalsAlong(rows: readonly WithdrawalRow[]): PostAlong {
  return {
    name: 'settlements_post_withdrawals',
    ctes: sql`
      opened AS (
        INSERT INTO settlements (id, kind, user_id, currency_id, amount, tax, wallet_address, reference)
        SELECT v.id, 'withdrawal', v.user_id, v.currency_id, v.amount, v.tax, v.wallet_address, ''
          FROM unnest(${pgArray(rows.map((r) => r.id))}::bpchar[], ${pgArray(rows.map((r) => r.userId))}::bpchar[],
                      ${pgArray(rows.map((r) => r.currencyId))}::int[], ${pgArray(rows.map((r) => r.amount))}::numeric[],
                      ${pgArray(rows.map((r) => r.tax))}::numeric[], ${pgArray(rows.map((r) => r.walletAddress))}::text[])
               AS v(id, user_id, currency_id, amount, tax, wallet_address)
         WHERE (SELECT ok FROM ok)
        RETURNING id, created_at, note)`,
    columns: sql`(SELECT json_agg(json_build_object('id', o.id, 'createdAt', o.created_at, 'note', o.note))
                    FROM opened o) AS withdrawals`,
  };
}

/** The column `withdrawalsAlong` adds to the posting's row. */
export interface WithdrawalsColumn extends Record<string, unknown> {
  withdrawals: Array<{ id: string; createdAt: string; note: string }> | null;
}

/** The withdrawals `withdrawalsAlong` opened, from the posting's row: each one's creation time and note, by id. */
export function openedWithdrawals(row: WithdrawalsColumn): Map<string, { createdAt: Date; note: string }> {
  return new Map((row.withdrawals ?? []).map((w) => [w.id, { createdAt: new Date(w.createdAt), note: w.note }]));
}

/**
 * Opens a pending deposit claim and returns its id, or null when the currency already has a pending or
 * approved claim of this reference (the unique index `settlements_deposit_reference`: the reference
 * trimmed, without case). Concurrent claims of one reference wait on the index: one is inserted, the
 * others get null. After null the caller's transaction is aborted: it must end it (throw).
 */
export async function insertDepositClaim(
  db: DbOrTx,
  values: { userId: string; currencyId: number; amount: string; walletAddress: string; reference: string },
): Promise<string | null> {
  try {
    return await insertSettlement(db, { kind: 'deposit', tax: '0', ...values });
  } catch (err) {
    const { code, constraint } = sqlErrorOf(err);
    if (code === '23505' && constraint === 'settlements_deposit_reference') return null;
    throw err;
  }
}

/**
 * Moves a pending settlement to `state`, in one statement, so two admins settling it at once cannot
 * both succeed: the loser's UPDATE finds it no longer pending and returns null.
 */
export async function closeSettlement(
  db: DbOrTx,
  id: string,
  change: { state: 'approved' | 'refused'; note: string; settledBy: string },
): Promise<SettlementRow | null> {
  const [row] = await db
    .update(settlements)
    .set({ ...change, settledAt: sql`now()` })
    .where(sql`${settlements.id} = ${id} AND ${settlements.state} = 'pending'`)
    .returning();
  return row ?? null;
}

/** Whether a settlement with this id exists (to tell 404 from 409 after `closeSettlement` refused). */
export async function settlementExists(db: DbOrTx, id: string): Promise<boolean> {
  const res = await db.execute(sql`SELECT 1 FROM settlements WHERE id = ${id}`);
  return res.rows.length > 0;
}

/**
 * Settlements as the wire shows them (DESIGN §8), pending first, then newest (ties by id), one page; and
 * how many match, counted up to a bound (`totalCapped`: more match than `total`; with no filter, not
 * counted when the table's estimate passes the bound: `wholeTableTotal`). Read in that order from
 * an index (migration 0019_list_indexes): `settlements_listing` ((state <> 'pending'),
 * created_at DESC, id DESC) without a state filter, `settlements_state_created` with one (the first key
 * is then the same for every row, so the order is the date's). The kind (two values) is checked on the
 * rows read. The page's ids are found first, so a deep page reads only its own rows whole.
 */
export async function findSettlements(
  db: DbOrTx,
  f: Pick<GetSettlementsRequest, 'kind' | 'state'> & { id?: string; limit: number; page: number },
): Promise<{ settlements: Settlement[]; total: number; totalCapped: boolean }> {
  const where: SQL[] = [sql`true`];
  if (f.id) where.push(sql`s.id = ${f.id}`);
  if (f.kind) where.push(sql`s.kind = ${f.kind}`);
  if (f.state) where.push(sql`s.state = ${f.state}`);
  const cond = sql.join(where, sql` AND `);
  // NULLS LAST as the index has it (the columns are never null: the same order, read from the index).
  const order = f.state
    ? sql`s.created_at DESC, s.id DESC`
    : sql`(s.state <> 'pending'), s.created_at DESC NULLS LAST, s.id DESC NULLS LAST`;
  const offset = (f.page - 1) * f.limit;
  const read = (on: DbOrTx, size: SQL | number, from: SQL | number) =>
    queryPlanned<{
      id: string;
      kind: 'deposit' | 'withdrawal';
      nickname: string;
      currency_id: number;
      precision: number;
      amount: string;
      tax: string;
      wallet_address: string;
      reference: string;
      state: 'pending' | 'approved' | 'refused';
      note: string;
      created_at: string | Date;
      settled_at: string | Date | null;
    }>(
      on,
      sql`
      SELECT s.id, s.kind, u.nickname, s.currency_id, c.precision, s.amount::text AS amount, s.tax::text AS tax,
             s.wallet_address, s.reference, s.state, s.note, s.created_at, s.settled_at
      FROM (SELECT s.id FROM settlements s WHERE ${cond} ORDER BY ${order} LIMIT ${size} OFFSET ${from}) page
      JOIN settlements s ON s.id = page.id
      JOIN users u ON u.id = s.user_id JOIN currencies c ON c.currency_id = s.currency_id
      ORDER BY ${order}`,
    );
  // The whole list (no filter): one range of settlements_listing whatever the page, read with its generic plan.
  const [rows, count] = await Promise.all([
    where.length === 1
      ? readWholeListPage(db, offset, (on, from) => read(on, pageSize(f.limit), from))
      : read(db, f.limit, offset),
    where.length === 1
      ? wholeTableTotal(db, 'settlements', offset)
      : cappedTotal(db, sql`settlements s WHERE ${cond}`, offset),
  ]);
  const at = (v: string, p: number) => formatAtPrecision(fromNumeric(v), p);
  return {
    ...count,
    settlements: rows.map((r) => ({
      _id: r.id,
      kind: r.kind,
      user: { nickname: r.nickname },
      currencyId: Number(r.currency_id),
      amount: at(r.amount, Number(r.precision)),
      tax: at(r.tax, Number(r.precision)),
      walletAddress: r.wallet_address,
      reference: r.reference,
      state: r.state,
      note: r.note,
      createdAt: new Date(r.created_at).toISOString(),
      settledAt: r.settled_at === null ? null : new Date(r.settled_at).toISOString(),
    })),
  };
}
