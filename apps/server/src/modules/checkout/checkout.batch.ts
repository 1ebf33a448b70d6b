/**
 * Provider events by group commit (DESIGN §9): the webhooks that name their checkout by our id
 * and arrive while a batch is written go together in the next one. One statement locks their checkouts
 * and finds the events recorded already (checkout.batch.queries.ts); each event then meets its checkout as
 * the one-by-one path would (checkout.events.ts); the completions that credit nothing but Credits, the
 * common case, are posted together in one statement that records their events with their outcome; every
 * other event is recorded as received and its transition runs as it does alone, in the batch's
 * transaction. Each event keeps its own outcome.
 */
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { inLiveTransaction } from '../../http/money-moving.ts';
import { GroupCommit, type Outcome } from '../../lib/group-commit.ts';
import { newObjectId } from '../../lib/ids.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import type { Entry } from '../ledger/ledger.public.ts';
import { insertNotificationsAlong } from '../notifications/notifications.public.ts';
import {
  type BatchEvent,
  completeWithCredits,
  eventKey,
  type LockedCheckout,
  lockCheckouts,
  recordEvents,
} from './checkout.batch.queries.ts';
import {
  applyToLocked,
  completedNotice,
  completesWithCreditsOnly,
  creditsEntry,
  type EventOutcome,
} from './checkout.events.ts';
import type { CheckoutRow } from './checkout.queries.ts';
import type { ProviderEvent } from './providers/provider.ts';

/** A provider event that names its checkout by our id: what a batch takes. */
export type NamedEvent = ProviderEvent & { checkoutId: string };

/** True when `e` names its checkout by our id, so it may go in a batch. */
export function namesCheckout(e: ProviderEvent): e is NamedEvent {
  return typeof e.checkoutId === 'string' && e.checkoutId !== '';
}

/**
 * Applies the verified events of a batch in `tx`, in order, and answers one outcome per event (those of
 * `applyProviderEvent`). Two events of one checkout, or one event twice, must meet each other's writes:
 * such a batch throws, and group commit runs its events one by one. Throws what a transition throws (the
 * batch then runs one by one too), and Error when a redelivery recorded one of the completions' events
 * meanwhile (`completeWithCredits`). `log` hears about mismatches and unknown checkouts.
 */
export async function applyProviderEvents(
  tx: Tx,
  events: readonly NamedEvent[],
  changes: LiveChanges,
  log: (message: string) => void,
): Promise<Outcome<EventOutcome>[]> {
  const distinct = (key: (e: NamedEvent) => string) => new Set(events.map(key)).size === events.length;
  if (!distinct((e) => e.checkoutId) || !distinct(eventKey)) {
    throw new Error('a batch of provider events names one checkout or one event twice');
  }
  const batch = events.map((e) => ({ ...e, rowId: newObjectId() }));
  const { checkouts, known } = await lockCheckouts(tx, batch);
  const outcomes: Array<EventOutcome | null> = batch.map(() => null);
  const credited: Array<{ checkout: CheckoutRow; credits: Entry; event: BatchEvent; paymentRef: string }> = [];
  const others: Array<{ index: number; e: (typeof batch)[number]; found: LockedCheckout | null }> = [];
  for (const [index, e] of batch.entries()) {
    if (known.has(eventKey(e))) {
      outcomes[index] = 'duplicate';
      continue;
    }
    const found = checkouts.get(e.checkoutId);
    // A checkout of another provider is not this event's (as `lockCheckoutAndRecord` finds it).
    const c = found && found.checkout.providerId === e.providerId ? found : null;
    if (c && completesWithCreditsOnly(c.checkout, e, c.items)) {
      credited.push({
        checkout: c.checkout,
        credits: creditsEntry(c.checkout),
        event: e,
        paymentRef: e.paymentRef ?? '',
      });
      outcomes[index] = 'completed';
    } else others.push({ index, e, found: c });
  }
  // Every other event is recorded as received, then its transition records its outcome, as alone.
  const recorded = await recordEvents(
    tx,
    others.map(({ e, found }) => ({ ...e, checkoutRow: found?.checkout.id ?? null })),
  );
  for (const { index, e, found } of others) {
    outcomes[index] = recorded.has(e.rowId)
      ? await applyToLocked(tx, found?.checkout ?? null, e, e.rowId, found?.items ?? [], changes, log)
      : 'duplicate';
  }
  // Their checkout_completed notifications ride in the completions' own statement.
  await completeWithCredits(
    tx,
    credited,
    changes,
    insertNotificationsAlong(credited.map(({ checkout }) => completedNotice(checkout))),
  );
  for (const { checkout } of credited) changes.touchUser(checkout.userId);
  return outcomes.map((value) =>
    value === null ? { ok: false, error: new Error('event left without an outcome') } : { ok: true, value },
  );
}

/** The group commit of provider events that name their checkout by our id. */
export type EventBatches = GroupCommit<NamedEvent, EventOutcome>;

/**
 * Starts `app`'s event batches (DESIGN §9): events that name their checkout by our id and arrive while a
 * batch is written go together in the next one, each with its own outcome (`applyProviderEvents`).
 */
export function startEventBatches(
  app: FastifyInstance,
  deps: { db: Db; log: { warn(msg: string): void } },
): EventBatches {
  return new GroupCommit<NamedEvent, EventOutcome>(
    (_lane, events, commit) =>
      inLiveTransaction(
        deps.db,
        app.live.changes,
        (tx, changes) => applyProviderEvents(tx, events, changes, (m) => deps.log.warn(m)),
        commit,
      ),
    32,
  );
}
