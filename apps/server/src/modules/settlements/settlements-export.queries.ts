/**
 * SQL of the settlement list's CSV export (DESIGN §11.6): the settlements matching the list's filters in
 * the list's order (pending first, then newest, ties by id: the `settlements_listing` and
 * `settlements_state_created` indexes) in keyset pages, each page the rows after the last one's
 * `(pending?, created_at, id)`: no OFFSET, however deep.
 * Reads other modules' tables: `users` (the nickname a settlement shows) and `currencies` (the bank's: each settlement's ticker and precision).
 */
import { formatAtPrecision, fromNumeric, type GetSettlementsRequest } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';
import { pageSize } from '../../db/paging.ts';

/** A settlement as the CSV shows it; `at` is its exact time as PostgreSQL's text (the cursor). */
export interface ExportedSettlement {
  id: string;
  at: string;
  kind: string;
  nickname: string;
  ticker: string;
  amount: string;
  tax: string;
  walletAddress: string;
  reference: string;
  state: string;
  note: string;
  createdAt: string;
  settledAt: string | null;
}

/** Up to `limit` settlements matching `f` after `after` (null: from the first), in the list's order. */
export async function findSettlementsAfter(
  db: DbOrTx,
  f: Pick<GetSettlementsRequest, 'kind' | 'state'>,
  after: Pick<ExportedSettlement, 'id' | 'at' | 'state'> | null,
  limit: number,
): Promise<ExportedSettlement[]> {
  const where: SQL[] = [sql`true`];
  if (f.kind) where.push(sql`s.kind = ${f.kind}`);
  if (f.state) where.push(sql`s.state = ${f.state}`);
  if (after) {
    // Past the cursor in (pending first, then newest): a later group, or the same group and older.
    const settled = after.state !== 'pending';
    where.push(sql`((s.state <> 'pending') > ${settled}::boolean
                    OR ((s.state <> 'pending') = ${settled}::boolean
                        AND (s.created_at, s.id) < (${after.at}::timestamptz, ${after.id}::bpchar)))`);
  }
  const order = sql`(s.state <> 'pending'), s.created_at DESC NULLS LAST, s.id DESC NULLS LAST`;
  const rows = await queryPlanned<{
    id: string;
    at: string;
    kind: string;
    nickname: string;
    ticker: string;
    precision: number;
    amount: string;
    tax: string;
    wallet_address: string;
    reference: string;
    state: string;
    note: string;
    created_at: string | Date;
    settled_at: string | Date | null;
  }>(
    db,
    sql`
    SELECT s.id, s.created_at::text AS at, s.kind, u.nickname, c.ticker, c.precision, s.amount::text AS amount,
           s.tax::text AS tax, s.wallet_address, s.reference, s.state, s.note, s.created_at, s.settled_at
    FROM (SELECT s.id FROM settlements s WHERE ${sql.join(where, sql` AND `)} ORDER BY ${order}
          LIMIT ${pageSize(limit)}) page
    JOIN settlements s ON s.id = page.id
    JOIN users u ON u.id = s.user_id JOIN currencies c ON c.currency_id = s.currency_id
    ORDER BY ${order}`,
  );
  const at = (v: string, p: number) => formatAtPrecision(fromNumeric(v), p);
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    kind: r.kind,
    nickname: r.nickname,
    ticker: r.ticker,
    amount: at(r.amount, Number(r.precision)),
    tax: at(r.tax, Number(r.precision)),
    walletAddress: r.wallet_address,
    reference: r.reference,
    state: r.state,
    note: r.note,
    createdAt: new Date(r.created_at).toISOString(),
    settledAt: r.settled_at === null ? null : new Date(r.settled_at).toISOString(),
  }));
}
