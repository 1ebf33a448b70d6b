/**
 * SQL of a batch of provider events (checkout.batch.ts, group commit: DESIGN §9): the checkouts they name
 * locked and the events recorded in one statement, and the completions that credit nothing but Credits
 * posted in one.
 */
import { CHECKOUT_STATE } from '@starlight/shared';
import { sql } from 'drizzle-orm';
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

/**
 * In one statement: locks every checkout the batch names (FOR UPDATE, in id order, so two batches never
 * wait on each other in a circle), each with its package's items, and records each event once per
 * provider event id (`rowId` as its row; a redelivery records nothing), naming its checkout when that
 * belongs to the event's provider. Returns the locked checkouts by id and the row ids recorded. A named
 * statement, planned once per connection: unnamed, it was parsed and planned again on every batch (0.5 of
 * its 1 ms, issue 20).
 */
export async function lockCheckoutsAndRecord(
  tx: Tx,
  events: readonly BatchEvent[],
): Promise<{ checkouts: Map<string, { checkout: CheckoutRow; items: PackageItem[] }>; recorded: Set<string> }> {
  const rows = await queryNamed<{
    checkouts: Array<CheckoutSqlRow & { items: PackageItem[] | null }> | null;
    recorded: string[] | null;
  }>(
    tx,
    'checkout_lock_record',
    sql`
    WITH j AS (
      SELECT * FROM unnest(${pgArray(events.map((e) => e.checkoutId))}::bpchar[],
                           ${pgArray(events.map((e) => e.providerId))}::int[],
                           ${pgArray(events.map((e) => e.eventId))}::text[],
                           ${pgArray(events.map((e) => e.eventType))}::text[],
                           ${pgArray(events.map((e) => JSON.stringify(e.payload)))}::jsonb[],
                           ${pgArray(events.map((e) => e.rowId))}::bpchar[])
        WITH ORDINALITY AS j(cid, provider, event_id, event_type, payload, row_id, n)),
    c AS MATERIALIZED (
      SELECT ${CHECKOUT_COLUMNS}, p.items
      FROM checkout_transactions t JOIN checkout_packages p ON p.id = t.package_id
      WHERE t.id IN (SELECT cid FROM j) ORDER BY t.id
      FOR UPDATE OF t),
    e AS (
      INSERT INTO checkout_events (id, checkout_id, provider_id, event_id, event_type, outcome, payload)
      SELECT j.row_id, c.id, j.provider, j.event_id, j.event_type, 'received', j.payload
      FROM j LEFT JOIN c ON c.id = j.cid AND c.provider_id = j.provider ORDER BY j.n
      ON CONFLICT (provider_id, event_id) DO NOTHING
      RETURNING id)
    SELECT (SELECT json_agg(row_to_json(c)) FROM c) AS checkouts, (SELECT array_agg(id::text) FROM e) AS recorded`,
  );
  const row = rows[0];
  const checkouts = new Map<string, { checkout: CheckoutRow; items: PackageItem[] }>();
  for (const c of row?.checkouts ?? []) checkouts.set(c.id, { checkout: toCheckoutRow(c), items: c.items ?? [] });
  return { checkouts, recorded: new Set(row?.recorded ?? []) };
}

/**
 * Completes the checkouts of `done` (each with its Credits' entry, `creditsEntry`, its event's row and the
 * provider's payment id, '' for none) in one posting: mints each one's Credits to its member,
 * moves it to Completed with nothing owed and records 'completed' with its event. The caller checked
 * each may complete (`completesWithCreditsOnly`) under its lock. Throws Error when a row was not written.
 */
export async function completeWithCredits(
  tx: Tx,
  done: ReadonlyArray<{ checkout: CheckoutRow; credits: Entry; eventRow: string; paymentRef: string }>,
  changes: LiveChanges,
): Promise<void> {
  if (done.length === 0) return;
  const written = await postEntries<{ completed: number; recorded: number }>(
    tx,
    done.map((d) => d.credits),
    changes,
    {
      name: 'checkout_complete_batch',
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
        outcome AS (
          UPDATE checkout_events SET outcome = 'completed'
           WHERE id = ANY(${pgArray(done.map((d) => d.eventRow))}::bpchar[]) AND (SELECT ok FROM ok)
          RETURNING 1)`,
      columns: sql`(SELECT count(*) FROM done)::int AS completed, (SELECT count(*) FROM outcome)::int AS recorded`,
    },
  );
  if (written.completed !== done.length || written.recorded !== done.length) {
    throw new Error(
      `a batch of ${done.length} completions wrote ${written.completed} checkouts, ${written.recorded} events`,
    );
  }
}
