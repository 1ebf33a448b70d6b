/** SQL of checkout transactions and their provider events (DESIGN §7). */
import { type Checkout, CREDITS_CURRENCY_ID, formatAtPrecision, fromNumeric } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { withinDates } from '../../db/date-range.ts';
import { checkoutEvents, checkoutTransactions } from '../../db/schema/index.ts';
import { newObjectId } from '../../lib/ids.ts';

/** A checkout row as the service works with it (money as numeric text). */
export type CheckoutRow = typeof checkoutTransactions.$inferSelect;

/** Opens a checkout (state 1 Created) and returns its id. */
export async function insertCheckout(
  db: DbOrTx,
  values: Pick<CheckoutRow, 'userId' | 'packageId' | 'packageName' | 'providerId' | 'ip' | 'cost' | 'amount'>,
): Promise<string> {
  const id = newObjectId();
  await db.insert(checkoutTransactions).values({ id, ...values });
  return id;
}

/** Writes what changed of checkout `id` (and its `updatedAt`). */
export async function updateCheckout(
  db: DbOrTx,
  id: string,
  fields: Partial<Pick<CheckoutRow, 'refId' | 'paymentRef' | 'state' | 'credited' | 'takenBack' | 'owed'>>,
): Promise<void> {
  await db
    .update(checkoutTransactions)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(sql`${checkoutTransactions.id} = ${id}`);
}

/**
 * The checkout `id`, or the one the provider knows as `refId` (its payment page) or `paymentRef` (its
 * payment, which refunds and disputes name), locked FOR UPDATE so that the events of
 * one checkout apply one at a time; null when there is none.
 */
export async function lockCheckout(
  db: DbOrTx,
  by: { id?: string | undefined; providerId: number; refId?: string | undefined; paymentRef?: string | undefined },
): Promise<CheckoutRow | null> {
  const t = checkoutTransactions;
  const where = by.id
    ? sql`${t.id} = ${by.id}`
    : by.refId
      ? sql`${t.providerId} = ${by.providerId} AND ${t.refId} = ${by.refId}`
      : by.paymentRef
        ? sql`${t.providerId} = ${by.providerId} AND ${t.paymentRef} = ${by.paymentRef}`
        : null;
  if (!where) return null;
  const [row] = await db.select().from(checkoutTransactions).where(where).for('update');
  return row ?? null;
}

/**
 * Records a provider event once: false when this provider's event id is already recorded (a redelivery
 * or a concurrent duplicate, which waits for the first one's transaction and then finds it there).
 */
export async function insertEvent(
  db: DbOrTx,
  values: {
    checkoutId: string | null;
    providerId: number;
    eventId: string;
    eventType: string;
    outcome: string;
    payload: unknown;
  },
): Promise<string | null> {
  const id = newObjectId();
  const rows = await db
    .insert(checkoutEvents)
    .values({ id, ...values, payload: values.payload as object })
    .onConflictDoNothing({ target: [checkoutEvents.providerId, checkoutEvents.eventId] })
    .returning({ id: checkoutEvents.id });
  return rows[0]?.id ?? null;
}

/** Sets the outcome of the recorded event `id`. */
export async function setEventOutcome(db: DbOrTx, id: string, outcome: string): Promise<void> {
  await db.update(checkoutEvents).set({ outcome }).where(sql`${checkoutEvents.id} = ${id}`);
}

/** What a checkout list selects: own (`userId`), one (`id`), or the admin filters of SPEC §2. */
export interface CheckoutQuery {
  id?: string;
  userId?: string;
  nickname?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  state?: number | undefined;
  checkoutProvider?: number | undefined;
  refId?: string | undefined;
  package?: string | undefined;
  limit: number;
  page: number;
}

function checkoutWhere(q: CheckoutQuery): SQL {
  const where: SQL[] = [sql`true`];
  if (q.id) where.push(sql`t.id = ${q.id}`);
  if (q.userId) where.push(sql`t.user_id = ${q.userId}`);
  if (q.nickname) where.push(sql`t.user_id = (SELECT id FROM users WHERE nickname = ${q.nickname})`);
  if (q.state) where.push(sql`t.state = ${q.state}`);
  if (q.checkoutProvider) where.push(sql`t.provider_id = ${q.checkoutProvider}`);
  if (q.refId) where.push(sql`t.ref_id = ${q.refId}`);
  if (q.package) where.push(sql`t.package_id = ${q.package}`);
  where.push(...withinDates(sql`t.created_at`, q.startDate, q.endDate));
  return sql.join(where, sql` AND `);
}

/** Checkouts as the wire shows them (DESIGN §7) with their event history, newest first; and the count. */
export async function findCheckouts(
  db: DbOrTx,
  q: CheckoutQuery,
): Promise<{ transactions: Checkout[]; total: number }> {
  const cond = checkoutWhere(q);
  const [rows, count] = await Promise.all([
    db.execute<{
      id: string;
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
      events: Array<{ eventType: string; dateReceived: string }> | null;
    }>(sql`
      SELECT t.id, t.created_at, u.nickname, t.package_id, t.package_name, t.cost::text AS cost, t.provider_id,
             t.ref_id, t.ip, t.state, t.amount::text AS amount, t.owed::text AS owed, c.precision,
             (SELECT json_agg(json_build_object('eventType', e.event_type, 'dateReceived', e.received_at)
                              ORDER BY e.received_at, e.id)
                FROM checkout_events e WHERE e.checkout_id = t.id) AS events
      FROM checkout_transactions t
      JOIN users u ON u.id = t.user_id
      JOIN currencies c ON c.currency_id = ${CREDITS_CURRENCY_ID}
      WHERE ${cond}
      ORDER BY t.created_at DESC, t.id DESC
      LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}`),
    q.id ? null : db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM checkout_transactions t WHERE ${cond}`),
  ]);
  const transactions = rows.rows.map(
    (r): Checkout => ({
      _id: r.id,
      createdAt: new Date(r.created_at).toISOString(),
      user: { nickname: r.nickname },
      package: { _id: r.package_id, name: r.package_name, cost: formatAtPrecision(fromNumeric(r.cost), 2) },
      checkoutProvider: Number(r.provider_id),
      refId: r.ref_id,
      ip: r.ip,
      state: Number(r.state),
      amount: formatAtPrecision(fromNumeric(r.amount), Number(r.precision)),
      owed: formatAtPrecision(fromNumeric(r.owed), Number(r.precision)),
      eventHistory: (r.events ?? []).map((e) => ({
        eventType: e.eventType,
        dateReceived: new Date(e.dateReceived).toISOString(),
      })),
    }),
  );
  return { transactions, total: count ? Number(count.rows[0]?.n ?? 0) : transactions.length };
}
