/**
 * SQL of the Checkout Logs' CSV export (DESIGN §11.6): the checkouts matching the list's filters
 * (`checkoutWhere`, each served by an index in the list's date order) in keyset pages, newest first, each
 * page the rows before the last one's `(created_at, id)`: no OFFSET, however deep.
 * Reads other modules' tables: `currencies` (Credits' precision for the amounts shown) and `users` (the nickname a checkout shows).
 */
import { CREDITS_CURRENCY_ID, formatAtPrecision, fromNumeric } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';
import { pageSize } from '../../db/paging.ts';
import { type CheckoutQuery, checkoutWhere } from './checkout.queries.ts';

/** A checkout as the CSV shows it (amounts decimal strings: Credits, and the package's cost in USD). */
export interface ExportedCheckout {
  id: string;
  at: string;
  createdAt: string;
  nickname: string;
  packageId: string;
  packageName: string;
  cost: string;
  provider: number;
  refId: string;
  ip: string;
  state: number;
  amount: string;
  owed: string;
}

/** Up to `limit` checkouts matching `q` after `after` (null: from the newest), newest first. */
export async function findCheckoutsAfter(
  db: DbOrTx,
  q: Omit<CheckoutQuery, 'limit' | 'page'>,
  after: Pick<ExportedCheckout, 'id' | 'at'> | null,
  limit: number,
): Promise<ExportedCheckout[]> {
  const where = await checkoutWhere(db, q);
  if (where === null) return [];
  const cursor = after ? sql` AND (t.created_at, t.id) < (${after.at}::timestamptz, ${after.id}::bpchar)` : sql``;
  const rows = await queryPlanned<{
    id: string;
    at: string;
    created_at: string | Date;
    nickname: string;
    package_id: string;
    package_name: string;
    cost: string;
    provider_id: number;
    ref_id: string;
    ip: string;
    state: number;
    amount: string;
    owed: string;
    precision: number;
  }>(
    db,
    sql`
    SELECT t.id, t.created_at::text AS at, t.created_at, u.nickname, t.package_id, t.package_name,
           t.cost::text AS cost, t.provider_id, t.ref_id, t.ip, t.state, t.amount::text AS amount,
           t.owed::text AS owed, c.precision
    FROM (SELECT t.id, t.created_at FROM checkout_transactions t WHERE ${where.cond}${cursor}
          ORDER BY t.created_at DESC, t.id DESC LIMIT ${pageSize(limit)}) page
    JOIN checkout_transactions t ON t.id = page.id
    JOIN users u ON u.id = t.user_id
    JOIN currencies c ON c.currency_id = ${sql.raw(String(CREDITS_CURRENCY_ID))}
    ORDER BY page.created_at DESC, page.id DESC`,
  );
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    createdAt: new Date(r.created_at).toISOString(),
    nickname: r.nickname,
    packageId: r.package_id,
    packageName: r.package_name,
    cost: formatAtPrecision(fromNumeric(r.cost), 2),
    provider: Number(r.provider_id),
    refId: r.ref_id,
    ip: r.ip,
    state: Number(r.state),
    amount: formatAtPrecision(fromNumeric(r.amount), Number(r.precision)),
    owed: formatAtPrecision(fromNumeric(r.owed), Number(r.precision)),
  }));
}
