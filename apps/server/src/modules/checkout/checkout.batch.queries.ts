/**
 * SQL of a batch of provider events (checkout.batch.ts, group commit: DESIGN §9): the checkouts they name
 * locked and the events recorded in one statement, and the completions that credit nothing but Credits
 * posted in one.
 */
import { CHECKOUT_STATE } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { queryNamed, type Tx } from '../../db/client.ts';
import { pgArray } from '../../db/pg-array.ts';
import type { PackageItem } from '../../db/schema/index.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { type Entry, postEntries } from '../ledger/ledger.public.ts';
import { CHECKOUT_COLUMNS, type CheckoutRow, type CheckoutSqlRow, toCheckoutRow } from './checkout.queries.ts';

/** One event of a batch as it is recorded: the checkout it names by our id, and its new row's id. */
export interface BatchEvent {
  checkoutId: string;
  providerId: number;
  eventId: string;
  eventType: string;
  payload: unknown;
  rowId: string;
}

/** An event's row as a batch records it: `BatchEvent` with the checkout it names (null: none of its provider's). */
type EventRow = BatchEvent & { checkoutRow: string | null };

/** The `checkout_events` insert of `rows` with `outcome`, for a CTE: a redelivery (same provider event id) inserts nothing. */
function insertEvents(rows: readonly EventRow[], outcome: string) {
  return sql`
      INSERT INTO checkout_events (id, checkout_id, provider_id, event_id, event_type, outcome, payload)
      SELECT row_id, cid, provider, event_id, event_type, ${outcome}, payload
      FROM unnest(${pgArray(rows.map((e) => e.rowId))}::bpchar[],
                  ${pgArray(rows.map((e) => e.checkoutRow))}::bpchar[],
                  ${pgArray(rows.map((e) => e.providerId))}::int[],
                  ${pgArray(rows.map((e) => e.eventId))}::text[],
                  ${pgArray(rows.map((e) => e.eventType))}::text[],
                  ${pgArray(rows.map((e) => JSON.stringify(e.payload)))}::jsonb[])
        WITH ORDINALITY AS j(row_id, cid, provider, event_id, event_type, payload, n)
      ORDER BY n
      ON CONFLICT (provider_id, event_id) DO NOTHING
      RETURNING id`;
}

/** The key of a provider event: its provider and its event id. */
export const eventKey = (e: { providerId: number; eventId: string }) => `${e.providerId} ${e.eventId}`;

/** A checkout a batch locked, with its package's items. */
export type LockedCheckout = { checkout: CheckoutRow; items: PackageItem[] };

/**
 * In one statement: locks every checkout the batch names (FOR UPDATE, in id order, so two batches never
 * wait on each other in a circle), each with its package's items, and finds which of the events are
 * recorded already (by provider and provider event id). Records nothing: each event is recorded once,
 * with its outcome, by `recordEvents` or in its completion's posting (`completeWithCredits`), whose
 * insert on the events' unique key is the last word on a redelivery racing its first delivery. A named
 * statement, planned once per connection: unnamed, it was parsed and planned again on every batch, about
 * half of its cost.
 */
export async function lockCheckouts(
  tx: Tx,
  events: readonly BatchEvent[],
): Promise<{ checkouts: Map<string, LockedCheckout>; known: Set<string> }> {
  const rows = await queryNamed<{
    checkouts: Array<CheckoutSqlRow & { items: PackageItem[] | null }> | null;
    known: Array<{ providerId: number; eventId: string }> | null;
  }>(
    tx,
    'checkout_lock',
    sql`
    WITH c AS MATERIALIZED (
      SELECT ${CHECKOUT_COLUMNS}, p.items
      FROM checkout_transactions t JOIN checkout_packages p ON p.id = t.package_id
      WHERE t.id = ANY(${pgArray(events.map((e) => e.checkoutId))}::bpchar[]) ORDER BY t.id
      FOR UPDATE OF t)
    SELECT (SELECT json_agg(row_to_json(c)) FROM c) AS checkouts,
           (SELECT json_agg(json_build_object('providerId', x.provider_id, 'eventId', x.event_id))
              FROM unnest(${pgArray(events.map((e) => e.providerId))}::int[],
                          ${pgArray(events.map((e) => e.eventId))}::text[]) AS j(provider, event_id)
              JOIN checkout_events x ON x.provider_id = j.provider AND x.event_id = j.event_id) AS known`,
  );
  const row = rows[0];
  const checkouts = new Map<string, LockedCheckout>();
  for (const c of row?.checkouts ?? []) checkouts.set(c.id, { checkout: toCheckoutRow(c), items: c.items ?? [] });
  return { checkouts, known: new Set((row?.known ?? []).map(eventKey)) };
}

/**
 * Records `rows` as received (their transitions then record each one's outcome) in one statement.
 * Returns the row ids recorded: a redelivery recorded since `lockCheckouts` looked is left out.
 */
export async function recordEvents(tx: Tx, rows: readonly EventRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const recorded = await queryNamed<{ id: string }>(
    tx,
    'checkout_record_events',
    sql`WITH e AS (${insertEvents(rows, 'received')}) SELECT id::text FROM e`,
  );
  return new Set(recorded.map((r) => r.id));
}

/**
 * Completes the checkouts of `done` (each with its Credits' entry, `creditsEntry`, its event and the
 * provider's payment id, '' for none) in one posting: mints each one's Credits to its member, moves it to
 * Completed with nothing owed, and records its event with outcome 'completed'. The caller checked each
 * may complete (`completesWithCreditsOnly`) under its lock. Throws Error when a row was not written
 * (an event recorded meanwhile by a redelivery: the batch then runs one by one).
 */
export async function completeWithCredits(
  tx: Tx,
  done: ReadonlyArray<{ checkout: CheckoutRow; credits: Entry; event: BatchEvent; paymentRef: string }>,
  changes: LiveChanges,
  notified: { ids: string[]; ctes: SQL; columns: SQL },
): Promise<void> {
  if (done.length === 0) return;
  const events = done.map((d) => ({ ...d.event, checkoutRow: d.checkout.id }));
  const written = await postEntries<{ completed: number; recorded: number }>(
    tx,
    done.map((d) => d.credits),
    changes,
    {
      name: 'checkout_complete_batch_notify',
      ctes: sql`
        done AS (
          UPDATE checkout_transactions t
             SET state = ${CHECKOUT_STATE.Completed}::int, credited = t.amount, updated_at = now(),
                 chips_granted = 0, chips_owed = 0,
                 payment_ref = CASE WHEN v.pay <> '' THEN v.pay ELSE t.payment_ref END
            FROM unnest(${pgArray(done.map((d) => d.checkout.id))}::bpchar[],
                        ${pgArray(done.map((d) => d.paymentRef))}::text[]) AS v(id, pay)
           WHERE t.id = v.id AND (SELECT ok FROM ok)
          RETURNING 1),
        recorded AS (${insertEvents(events, 'completed')}), ${notified.ctes}`,
      columns: sql`(SELECT count(*) FROM done)::int AS completed, (SELECT count(*) FROM recorded)::int AS recorded,
                   ${notified.columns}`,
    },
  );
  if (written.completed !== done.length || written.recorded !== done.length) {
    throw new Error(
      `a batch of ${done.length} completions wrote ${written.completed} checkouts, ${written.recorded} events`,
    );
  }
  changes.touchNotifications(notified.ids);
}
