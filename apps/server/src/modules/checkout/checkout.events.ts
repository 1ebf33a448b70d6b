/**
 * The checkout state machine (DESIGN §7): one verified provider event applied to one checkout, in the
 * caller's transaction, together with the event's record, so a crash never loses or doubles a payment.
 * - Every event is recorded once per provider event id; a redelivery changes nothing.
 * - The checkout row is locked first, so its events apply one at a time, whatever order they come in.
 * - `paid` completes a Created, Pending, Delayed or Cancelled checkout (a payment after an expiry is still
 *   money received) when the amount, currency and package match what was asked, and mints the Credits
 *   once (category 12, reference = the checkout). A mismatch never credits: it is recorded and logged.
 * - `pending` and `delayed` move an open checkout along; `failed` cancels one that is not paid.
 * - `refunded` or `dispute_lost` on a Completed checkout burns back the Credits the member still holds
 *   (category 11, in proportion to what was refunded) and records the rest as owed: never a negative
 *   balance. It resolves the checkout (6); one arriving before the payment resolves it too, so a later
 *   `paid` finds it closed and credits nothing.
 * - Completed also grants the package's items, and a full refund takes them back (`checkout.grants.ts`).
 */
import {
  type Amount,
  CHECKOUT_STATE,
  CREDITS_CURRENCY_ID,
  formatAmount,
  fromNumeric,
  TX_CATEGORY,
} from '@starlight/shared';
import type { Tx } from '../../db/client.ts';
import type { PackageItem } from '../../db/schema/index.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { type Entry, postEntries } from '../ledger/ledger.public.ts';
import { type NewNotification, notify } from '../notifications/notifications.public.ts';
import {
  cancelShipListings,
  chipsBackEntry,
  createGrantedShips,
  lockForItems,
  NO_GRANT,
  planGrant,
  takeBackShips,
} from './checkout.grants.ts';
import {
  type CheckoutRow,
  lockCheckoutAndRecord,
  postCompletion,
  setEventOutcome,
  updateCheckout,
} from './checkout.queries.ts';
import type { ProviderEvent } from './providers/provider.ts';

const { Created, Pending, Delayed, Resolved, Cancelled, Completed } = CHECKOUT_STATE;
const OPEN: readonly number[] = [Created, Pending, Delayed];

/** What applying an event did: `duplicate` (already recorded), or the outcome recorded with it. */
export type EventOutcome =
  | 'duplicate'
  | 'unknown_checkout'
  | 'completed'
  | 'mismatch'
  | 'pending'
  | 'delayed'
  | 'cancelled'
  | 'resolved'
  | 'recorded'
  | 'ignored';

/** US dollar cents of a checkout's cost (numeric text with 2 decimals). */
export function costCents(cost: string): bigint {
  return fromNumeric(cost) / 10_000_000n;
}

/** True when what the provider says was paid is exactly what the checkout asked. */
function matches(c: CheckoutRow, paid: ProviderEvent['paid']): boolean {
  if (!paid) return false;
  if (paid.cents !== costCents(c.cost) || paid.currency.toLowerCase() !== 'usd') return false;
  return paid.packageId === undefined || paid.packageId === c.packageId;
}

/** The posting of checkout `c`'s Credits to its member: a mint, category 12, reference = the checkout. */
export function creditsEntry(c: CheckoutRow): Entry {
  return {
    category: TX_CATEGORY.CheckoutMint,
    currencyId: CREDITS_CURRENCY_ID,
    amount: fromNumeric(c.amount),
    executorId: null,
    senderId: null,
    recipientId: c.userId,
    reference: c.id,
    note: `Checkout: ${c.packageName}`,
  };
}

/** Where a member's checkouts are listed (the Checkout Logs of the user area). */
const CHECKOUT_LOGS = '/userbank?tab=logs&log=checkout';

/** The checkout_completed notification of `c` (DESIGN §11.3): the package and the Credits it brought. */
export function completedNotice(c: CheckoutRow): NewNotification {
  return {
    userId: c.userId,
    kind: 'checkout_completed',
    title: 'Your purchase is complete',
    body: `${c.packageName}: ${formatAmount(fromNumeric(c.amount), 2)} Credits were added to your balance.`,
    link: CHECKOUT_LOGS,
  };
}

/** The items_received notification of a completion's grant (chips and ships), or none when it granted none. */
function itemsNotice(c: CheckoutRow, grant: { chipsGranted: number; ships: number }): NewNotification[] {
  const parts = [
    ...(grant.chipsGranted > 0 ? [`${grant.chipsGranted} synth chip${grant.chipsGranted === 1 ? '' : 's'}`] : []),
    ...(grant.ships > 0 ? [`${grant.ships} ship${grant.ships === 1 ? '' : 's'}`] : []),
  ];
  if (parts.length === 0) return [];
  return [
    {
      userId: c.userId,
      kind: 'items_received',
      title: 'You received items',
      body: `${c.packageName} brought you ${parts.join(' and ')}.`,
      link: '/userbank',
    },
  ];
}

/**
 * Mints the checkout's Credits to its member (category 12) and grants the package's items
 * (`checkout.grants.ts`), and completes it with the event's outcome: the balance rows are locked first
 * in the global order, then the Credits and the chips post in the ledger's one posting statement (the
 * checkout and event updates ride along), then the ships are created. `log` hears of chips owed.
 */
async function complete(
  tx: Tx,
  c: CheckoutRow,
  e: ProviderEvent,
  eventRow: string,
  items: readonly PackageItem[],
  changes: LiveChanges,
  log: (message: string) => void,
): Promise<void> {
  // Without items the posting's own upsert takes the member's one Credits row: no lock statement first.
  const grant =
    items.length > 0
      ? await lockForItems(tx, c.userId, true).then(({ balances, sale }) => planGrant(c, items, balances, sale))
      : NO_GRANT;
  await postCompletion(tx, [creditsEntry(c), ...grant.entries], changes, {
    checkoutId: c.id,
    eventRow,
    paymentRef: e.paymentRef ?? '',
    chipsGranted: grant.chipsGranted,
    chipsOwed: grant.chipsOwed,
  });
  const ships = await createGrantedShips(tx, c, grant, changes);
  await notify(tx, [completedNotice(c), ...itemsNotice(c, { chipsGranted: grant.chipsGranted, ships })], changes);
  if (grant.chipsOwed > 0) log(`checkout ${c.id}: the synth chip sale is sold out, ${grant.chipsOwed} chip(s) owed`);
  changes.touchUser(c.userId);
}

/**
 * Takes back, of what the checkout credited and was not taken back yet, the share `e` refunds (all of
 * it for a lost dispute), as far as the member still holds Credits (category 11); the rest is owed. A
 * full refund or lost dispute also takes back the package's items the member still holds, once
 * (`checkout.grants.ts`).
 */
async function takeBack(tx: Tx, c: CheckoutRow, e: ProviderEvent, changes: LiveChanges): Promise<void> {
  const credited = fromNumeric(c.credited);
  const already = fromNumeric(c.takenBack) + fromNumeric(c.owed);
  const partial =
    e.signal === 'refunded' && e.refund && e.refund.totalCents > 0n && e.refund.refundedCents < e.refund.totalCents;
  const share = partial && e.refund ? (credited * e.refund.refundedCents) / e.refund.totalCents : credited;
  const due = share > already ? share - already : 0n;
  const withItems = !partial && !c.itemsTakenBack;
  if (withItems) await cancelShipListings(tx, c, changes);
  const { balances, sale } = await lockForItems(tx, c.userId, withItems && c.chipsGranted > 0);
  const held = balances.of(c.userId, CREDITS_CURRENCY_ID);
  const taken = (due < held ? due : held) as Amount;
  const note = `Checkout ${e.signal === 'refunded' ? 'refunded' : 'dispute lost'}: ${c.packageName}`;
  const entries: Entry[] = [
    ...(taken > 0n
      ? [
          {
            category: TX_CATEGORY.Burn,
            currencyId: CREDITS_CURRENCY_ID,
            amount: taken,
            executorId: null,
            senderId: c.userId,
            recipientId: null,
            reference: c.id,
            note,
          },
        ]
      : []),
    ...(withItems ? chipsBackEntry(c, balances, sale, note) : []),
  ];
  await postEntries(tx, entries, changes);
  const ships = withItems ? await takeBackShips(tx, c, changes) : 0;
  if (entries.length > 0 || ships > 0) changes.touchUser(c.userId);
  const refund = e.signal === 'refunded';
  // Announced when it changes something: the first refund, or one that takes back more (never a redelivery).
  const announce = c.state === Completed || due > 0n || withItems;
  await notify(
    tx,
    announce
      ? [
          {
            userId: c.userId,
            kind: 'checkout_refunded',
            title: refund ? 'Your purchase was refunded' : 'Your purchase was reversed',
            body: `${c.packageName}: ${refund ? (partial ? 'part of the payment was refunded' : 'the payment was refunded') : 'the payment was disputed and reversed'}${taken > 0n ? `; ${formatAmount(taken, 2)} Credits were taken back` : ''}.`,
            link: CHECKOUT_LOGS,
          },
        ]
      : [],
    changes,
  );
  await updateCheckout(tx, c.id, {
    state: Resolved,
    takenBack: formatAmount(fromNumeric(c.takenBack) + taken),
    owed: formatAmount(fromNumeric(c.owed) + (due - taken)),
    ...(withItems ? { itemsTakenBack: true } : {}),
  });
}

/** The transition of `c` under `e` (see the module comment); writes it and returns its outcome. */
async function transition(
  tx: Tx,
  c: CheckoutRow,
  e: ProviderEvent,
  eventRow: string,
  items: readonly PackageItem[],
  changes: LiveChanges,
  log: (message: string) => void,
): Promise<EventOutcome> {
  switch (e.signal) {
    case 'paid':
      if (![...OPEN, Cancelled].includes(c.state)) return 'ignored';
      if (!matches(c, e.paid)) return 'mismatch';
      await complete(tx, c, e, eventRow, items, changes, log);
      return 'completed';
    case 'pending':
      if (c.state !== Created) return 'ignored';
      await updateCheckout(tx, c.id, { state: Pending });
      return 'pending';
    case 'delayed':
      if (c.state !== Created && c.state !== Pending) return 'ignored';
      await updateCheckout(tx, c.id, { state: Delayed });
      return 'delayed';
    case 'failed':
      if (!OPEN.includes(c.state)) return 'ignored';
      await updateCheckout(tx, c.id, { state: Cancelled });
      return 'cancelled';
    case 'refunded':
    case 'dispute_lost':
      if (c.state === Completed || c.state === Resolved) {
        await takeBack(tx, c, e, changes);
        return 'resolved';
      }
      if (c.state === Cancelled) return 'ignored';
      await updateCheckout(tx, c.id, { state: Resolved });
      return 'resolved';
    default:
      return 'recorded';
  }
}

/**
 * True when `e` completes checkout `c` with nothing but the Credits (`paid`, matching, on an open or
 * cancelled checkout whose package grants no items): the case a batch of events posts together
 * (checkout.batch.ts). `c` null (no such checkout) is never.
 */
export function completesWithCreditsOnly(
  c: CheckoutRow | null,
  e: ProviderEvent,
  items: readonly PackageItem[],
): boolean {
  return (
    c !== null &&
    e.signal === 'paid' &&
    [...OPEN, Cancelled].includes(c.state) &&
    matches(c, e.paid) &&
    items.length === 0
  );
}

/**
 * Applies `e` to checkout `c`, already locked in `tx`, whose event row `eventRow` was just recorded (see
 * the module comment); `c` null: the event names no known checkout of its provider. Records the outcome
 * with the event and returns it. `log` hears about mismatches and unknown checkouts.
 */
export async function applyToLocked(
  tx: Tx,
  c: CheckoutRow | null,
  e: ProviderEvent,
  eventRow: string,
  items: readonly PackageItem[],
  changes: LiveChanges,
  log: (message: string) => void,
): Promise<EventOutcome> {
  if (!c) {
    log(`checkout event ${e.eventType} ${e.eventId} names no known checkout of provider ${e.providerId}`);
    await setEventOutcome(tx, eventRow, 'unknown_checkout');
    return 'unknown_checkout';
  }
  const outcome = await transition(tx, c, e, eventRow, items, changes, log);
  // The member's kept checkout totals (by state, lib/kept-totals.ts) are dropped by any event of theirs.
  changes.touchUser(c.userId);
  if (outcome === 'mismatch') {
    log(
      `checkout ${c.id}: ${e.eventType} pays ${e.paid?.cents ?? '?'} ${e.paid?.currency ?? '?'} cents, asked ${costCents(c.cost)} usd: not credited`,
    );
  }
  // A completion recorded its outcome in its posting statement.
  if (outcome !== 'completed') await setEventOutcome(tx, eventRow, outcome);
  return outcome;
}

/**
 * Applies the verified provider event `e` in `tx` (see the module comment). Returns what it did; the
 * outcome is recorded with the event. `log` hears about mismatches and unknown checkouts.
 */
export async function applyProviderEvent(
  tx: Tx,
  e: ProviderEvent,
  changes: LiveChanges,
  log: (message: string) => void,
): Promise<EventOutcome> {
  const {
    checkout: usable,
    items,
    eventRow,
  } = await lockCheckoutAndRecord(
    tx,
    { id: e.checkoutId, providerId: e.providerId, refId: e.refId, paymentRef: e.paymentRef },
    e,
  );
  if (!eventRow) return 'duplicate';
  return applyToLocked(tx, usable, e, eventRow, items, changes, log);
}
