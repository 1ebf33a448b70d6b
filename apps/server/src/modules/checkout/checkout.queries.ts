/**
 * SQL of checkout transactions and their provider events (DESIGN §7).
 * Reads other modules' tables: `currencies` (Credits' precision for the amounts shown) and `users` (the nickname a checkout shows and a filter names), joined in the list's one statement.
 */
import { CHECKOUT_STATE, type Checkout, CREDITS_CURRENCY_ID, formatAtPrecision, fromNumeric } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned, type Tx } from '../../db/client.ts';
import { withinDates } from '../../db/date-range.ts';
import { idOfNickname } from '../../db/lists.ts';
import { cappedTotal, countNow, pageSize, readWholeListPage, type TotalOf, wholeTableTotal } from '../../db/paging.ts';
import { checkoutEvents, checkoutTransactions, type PackageItem } from '../../db/schema/index.ts';
import { readWithGenericPlans } from '../../db/transaction.ts';
import { newObjectId } from '../../lib/ids.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { type Entry, postEntries } from '../ledger/ledger.public.ts';

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
  fields: Partial<
    Pick<
      CheckoutRow,
      | 'refId'
      | 'paymentRef'
      | 'state'
      | 'credited'
      | 'takenBack'
      | 'owed'
      | 'chipsGranted'
      | 'chipsOwed'
      | 'itemsTakenBack'
    >
  >,
): Promise<void> {
  await db
    .update(checkoutTransactions)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(sql`${checkoutTransactions.id} = ${id}`);
}

/** Where a provider event finds its checkout: our id, or the provider's id of its page or of its payment. */
export interface CheckoutLookup {
  id?: string | undefined;
  providerId: number;
  refId?: string | undefined;
  paymentRef?: string | undefined;
}

/** The condition on `t` (checkout_transactions) of `by`, or null when it names nothing (see `refWhere`). */
function lookupWhere(by: CheckoutLookup): SQL | null {
  if (by.id) return sql`t.id = ${by.id}`;
  if (by.refId) return refWhere(by.providerId, sql`t.ref_id`, by.refId);
  if (by.paymentRef) return refWhere(by.providerId, sql`t.payment_ref`, by.paymentRef);
  return null;
}

/** A provider's ref, with its index's predicate (`<> ''`), which a generic plan cannot prove from a parameter. */
function refWhere(providerId: number, column: SQL, ref: string): SQL {
  return sql`t.provider_id = ${providerId} AND ${column} = ${ref} AND ${column} <> ''`;
}

/** A checkout row as `CHECKOUT_COLUMNS` selects it (money as text). */
export type CheckoutSqlRow = {
  id: string;
  user_id: string;
  package_id: string;
  package_name: string;
  provider_id: number;
  ref_id: string;
  payment_ref: string;
  ip: string;
  state: number;
  cost: string;
  amount: string;
  credited: string;
  taken_back: string;
  owed: string;
  chips_granted: number;
  chips_owed: number;
  items_taken_back: boolean;
  created_at: string | Date;
  updated_at: string | Date;
};

/** A checkout row from its SQL form. */
export const toCheckoutRow = (r: CheckoutSqlRow): CheckoutRow => ({
  id: r.id,
  userId: r.user_id,
  packageId: r.package_id,
  packageName: r.package_name,
  providerId: Number(r.provider_id),
  refId: r.ref_id,
  paymentRef: r.payment_ref,
  ip: r.ip,
  state: Number(r.state),
  cost: r.cost,
  amount: r.amount,
  credited: r.credited,
  takenBack: r.taken_back,
  owed: r.owed,
  chipsGranted: Number(r.chips_granted),
  chipsOwed: Number(r.chips_owed),
  itemsTakenBack: r.items_taken_back,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** The columns of a checkout `t` as `CheckoutSqlRow` names them. */
export const CHECKOUT_COLUMNS = sql`t.id, t.user_id, t.package_id, t.package_name, t.provider_id, t.ref_id,
  t.payment_ref, t.ip, t.state, t.cost::text AS cost, t.amount::text AS amount, t.credited::text AS credited,
  t.taken_back::text AS taken_back, t.owed::text AS owed, t.chips_granted, t.chips_owed, t.items_taken_back,
  t.created_at, t.updated_at`;

/** The checkout `id` (no lock), or null. */
export async function findCheckout(db: DbOrTx, id: string): Promise<CheckoutRow | null> {
  const [row] = await db.select().from(checkoutTransactions).where(sql`${checkoutTransactions.id} = ${id}`);
  return row ?? null;
}

/**
 * In one statement: locks the checkout `by` names (FOR UPDATE, so that the events of one checkout apply
 * one at a time) when it belongs to the event's provider, and records the provider event once (unique
 * per provider event id: a redelivery, or a concurrent duplicate that waits for the first one's
 * transaction, records nothing). Returns the locked checkout (null when none matches), the items its
 * package grants, and the new event row's id (null for a duplicate).
 */
export async function lockCheckoutAndRecord(
  db: DbOrTx,
  by: CheckoutLookup,
  event: { eventId: string; eventType: string; payload: unknown },
): Promise<{ checkout: CheckoutRow | null; items: PackageItem[]; eventRow: string | null }> {
  const where = lookupWhere(by) ?? sql`false`;
  const res = await db.execute<{
    checkout: CheckoutSqlRow | null;
    items: PackageItem[] | null;
    event_row: string | null;
  }>(sql`
    WITH c AS MATERIALIZED (
      SELECT ${CHECKOUT_COLUMNS}, p.items
      FROM checkout_transactions t JOIN checkout_packages p ON p.id = t.package_id
      WHERE ${where} AND t.provider_id = ${by.providerId}
      FOR UPDATE OF t),
    e AS (
      INSERT INTO checkout_events (id, checkout_id, provider_id, event_id, event_type, outcome, payload)
      SELECT ${newObjectId()}, (SELECT id FROM c), ${by.providerId}, ${event.eventId}, ${event.eventType}, 'received',
             ${JSON.stringify(event.payload)}::jsonb
      ON CONFLICT (provider_id, event_id) DO NOTHING
      RETURNING id)
    SELECT (SELECT row_to_json(c) FROM c) AS checkout, (SELECT items FROM c) AS items, (SELECT id FROM e) AS event_row`);
  const row = res.rows[0];
  return {
    checkout: row?.checkout ? toCheckoutRow(row.checkout) : null,
    items: row?.items ?? [],
    eventRow: row?.event_row ?? null,
  };
}

/**
 * Records a refused provider event (signed, but its body could not be read: DESIGN §7) with outcome
 * `refused` and no checkout. `eventId` is the deduplication key (e.g. a digest of the body), so a
 * redelivery of the same body records nothing more. Returns true when it recorded a new row.
 */
export async function recordRefusedEvent(
  db: DbOrTx,
  event: { providerId: number; eventId: string; eventType: string; payload: unknown },
): Promise<boolean> {
  const rows = await db
    .insert(checkoutEvents)
    .values({
      id: newObjectId(),
      checkoutId: null,
      providerId: event.providerId,
      eventId: event.eventId,
      eventType: event.eventType,
      outcome: 'refused',
      // As text cast to jsonb, so that a body that is JSON `null` is kept as such, not as SQL NULL.
      payload: sql`${JSON.stringify(event.payload ?? null)}::jsonb`,
    })
    .onConflictDoNothing({ target: [checkoutEvents.providerId, checkoutEvents.eventId] })
    .returning({ id: checkoutEvents.id });
  return rows.length > 0;
}

/**
 * Posts a completion's `entries` (the Credits, and chips granted) in the ledger's one posting statement,
 * with the checkout's move to Completed (credited = amount, the chips granted and owed, the payment's
 * reference when the event names one) and the event's outcome riding along (DESIGN §7): all or nothing.
 */
export async function postCompletion(
  tx: Tx,
  entries: Entry[],
  changes: LiveChanges,
  done: { checkoutId: string; eventRow: string; paymentRef: string; chipsGranted: number; chipsOwed: number },
): Promise<void> {
  await postEntries(tx, entries, changes, {
    name: 'checkout_complete',
    ctes: sql`
        done AS (
          UPDATE checkout_transactions
             SET state = ${CHECKOUT_STATE.Completed}::int, credited = amount, updated_at = now(),
                 chips_granted = ${done.chipsGranted}::int, chips_owed = ${done.chipsOwed}::int,
                 payment_ref = CASE WHEN ${done.paymentRef}::text <> '' THEN ${done.paymentRef}::text ELSE payment_ref END
           WHERE id = ${done.checkoutId} AND (SELECT ok FROM ok)
          RETURNING 1),
        outcome AS (
          UPDATE checkout_events SET outcome = 'completed' WHERE id = ${done.eventRow} AND (SELECT ok FROM ok) RETURNING 1)`,
    columns: sql`(SELECT count(*) FROM done)::int AS completed, (SELECT count(*) FROM outcome)::int AS recorded`,
  });
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

/**
 * The conditions of `q` on `t` (checkout_transactions), or null when its nickname names no account. Each
 * filter has an index that reads it in the list's order (migration 0019_list_indexes): the
 * member (`checkout_transactions_user`), the state, the package; no filter or a date range reads
 * `checkout_transactions_created`; a reference is unique per provider (`checkout_transactions_ref`, both
 * providers looked up: the table allows only 1 and 2). The provider alone (two values) narrows no more
 * than half, so it is checked on the rows read. `whole`: no filter; `oneIndex`: only the state or only the
 * package, which one index reads in the list's order whatever its value.
 */
export async function checkoutWhere(
  db: DbOrTx,
  q: Omit<CheckoutQuery, 'limit' | 'page'>,
): Promise<{ cond: SQL; whole: boolean; oneIndex: boolean } | null> {
  const where: SQL[] = [sql`true`];
  if (q.id) where.push(sql`t.id = ${q.id}`);
  if (q.userId) where.push(sql`t.user_id = ${q.userId}`);
  if (q.nickname) {
    const id = await idOfNickname(db, q.nickname);
    if (id === null) return null;
    where.push(sql`t.user_id = ${id}`);
  }
  if (q.state) where.push(sql`t.state = ${q.state}`);
  if (q.checkoutProvider) where.push(sql`t.provider_id = ${q.checkoutProvider}`);
  if (q.refId) where.push(sql`t.ref_id = ${q.refId} AND t.ref_id <> '' AND t.provider_id IN (1, 2)`);
  if (q.package) where.push(sql`t.package_id = ${q.package}`);
  where.push(...withinDates(sql`t.created_at`, q.startDate, q.endDate));
  const oneIndex = where.length === 2 && Boolean(q.state || q.package);
  return { cond: sql.join(where, sql` AND `), whole: where.length === 1, oneIndex };
}

/**
 * Checkouts as the wire shows them (DESIGN §7) with their event history, newest first (ties by id), one
 * page; and how many match, counted up to a bound (`totalCapped`: more match than `total`). The page's
 * ids are found first, so a deep page reads only its own rows whole. `totalOf`, when given, answers the
 * total instead of counting at once: it gets the count to run and may answer a kept one (lib/kept-totals.ts).
 */
export async function findCheckouts(
  db: DbOrTx,
  q: CheckoutQuery,
  totalOf: TotalOf = countNow,
): Promise<{ transactions: Checkout[]; total: number; totalCapped: boolean }> {
  const where = await checkoutWhere(db, q);
  if (where === null) return { transactions: [], total: 0, totalCapped: false };
  const { cond, whole, oneIndex } = where;
  const offset = (q.page - 1) * q.limit;
  const read = (on: DbOrTx, size: SQL | number, from: SQL | number) =>
    queryPlanned<{
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
    }>(
      on,
      sql`
      SELECT t.id, t.created_at, u.nickname, t.package_id, t.package_name, t.cost::text AS cost, t.provider_id,
             t.ref_id, t.ip, t.state, t.amount::text AS amount, t.owed::text AS owed, c.precision,
             (SELECT json_agg(json_build_object('eventType', e.event_type, 'dateReceived', e.received_at)
                              ORDER BY e.received_at, e.id)
                FROM checkout_events e WHERE e.checkout_id = t.id) AS events
      FROM (SELECT t.id, t.created_at FROM checkout_transactions t WHERE ${cond}
            ORDER BY t.created_at DESC, t.id DESC LIMIT ${size} OFFSET ${from}) page
      JOIN checkout_transactions t ON t.id = page.id
      JOIN users u ON u.id = t.user_id
      JOIN currencies c ON c.currency_id = ${sql.raw(String(CREDITS_CURRENCY_ID))}
      ORDER BY page.created_at DESC, page.id DESC`,
    );
  // The whole list (an admin's, no filter): one range of checkout_transactions_created whatever the page,
  // read with its generic plan; its total from the table's estimate past the bound (never deleted). Only a
  // state or only a package: one range of its index, also with its generic plan (EXPLAIN at the scale
  // seed: the state's index for its most and least common values), which PostgreSQL made again on every
  // call, at about the cost of the work. Not a member's: PostgreSQL keeps that plan
  // itself, and the transaction's round trips made it slower.
  const [rows, count] = await Promise.all([
    whole
      ? readWholeListPage(db, offset, (on, from) => read(on, pageSize(q.limit), from))
      : oneIndex
        ? readWithGenericPlans(db, (on) => read(on, pageSize(q.limit), offset))
        : read(db, q.limit, offset),
    q.id
      ? null
      : whole
        ? wholeTableTotal(db, 'checkout_transactions', offset)
        : totalOf(() => cappedTotal(db, sql`checkout_transactions t WHERE ${cond}`, offset)),
  ]);
  const transactions = rows.map(
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
  return { transactions, ...(count ?? { total: transactions.length, totalCapped: false }) };
}

/** What a purchase receipt shows: the checkout, its Credits' precision, and its member's nickname and e-mail. */
export interface ReceiptFacts {
  id: string;
  packageName: string;
  cost: string;
  amount: string;
  precision: number;
  nickname: string;
  email: string | null;
  updatedAt: Date;
}

/** The receipt facts of the checkout `by` names, or null: a named statement, read after every completion. */
export async function findReceiptFacts(db: DbOrTx, by: CheckoutLookup): Promise<ReceiptFacts | null> {
  const where = lookupWhere(by);
  if (!where) return null;
  type Row = { id: string; package_name: string; cost: string; amount: string; precision: number };
  const [r] = await queryPlanned<Row & { nickname: string; email: string | null; updated_at: string | Date }>(
    db,
    sql`
    SELECT t.id, t.package_name, t.cost::text AS cost, t.amount::text AS amount, c.precision, u.nickname, u.email,
           t.updated_at
    FROM checkout_transactions t
    JOIN users u ON u.id = t.user_id
    JOIN currencies c ON c.currency_id = ${sql.raw(String(CREDITS_CURRENCY_ID))}
    WHERE ${where}`,
  );
  if (!r) return null;
  return {
    id: r.id,
    packageName: r.package_name,
    cost: r.cost,
    amount: r.amount,
    precision: Number(r.precision),
    nickname: r.nickname,
    email: r.email,
    updatedAt: new Date(r.updated_at),
  };
}
