/**
 * A package's items (DESIGN §7 `items:[{type 1|2, amount}]`), granted with the Credits when a
 * checkout completes and taken back with them:
 * - type 1, Alpha synth chips: moved from the sale's fixed supply to the member (category 3, reference =
 *   the checkout) as far as the supply lasts; what it could not supply is recorded as `chipsOwed`.
 * - type 2, Alpha ships: created for the member in Alpha Ships, drawn from the published drop table,
 *   each naming the checkout.
 * Everything runs in the completion's transaction, after its balance rows were locked in the global
 * order, so a payment grants its items exactly once. A full refund or a lost dispute gives the chips the
 * member still holds back to the sale and removes the ships the member still owns (once); a ship given
 * or sold on stays with its new owner. A partial refund takes back Credits only, as items do not divide.
 */
import { CREDITS_CURRENCY_ID, PACKAGE_ITEM_TYPE, TX_CATEGORY, wholeUnits, wholeUnitsOf } from '@starlight/shared';
import type { Tx } from '../../db/client.ts';
import type { PackageItem } from '../../db/schema/index.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { findSale, type Sale } from '../chips/chips.public.ts';
import { createShips } from '../chips/chips.service.ts';
import { deleteCheckoutItems } from '../items/items.public.ts';
import type { Entry } from '../ledger/ledger.public.ts';
import { type BatchBalances, lockBalances } from '../ledger/ledger.public.ts';
import { cancelCheckoutListings } from '../market/market.public.ts';
import type { CheckoutRow } from './checkout.queries.ts';

/** How many chips and ships `items` grant. */
export function countItems(items: readonly PackageItem[]): { chips: number; ships: number } {
  const sum = (type: number) => items.filter((i) => i.type === type).reduce((n, i) => n + i.amount, 0);
  return { chips: sum(PACKAGE_ITEM_TYPE.SynthChips), ships: sum(PACKAGE_ITEM_TYPE.Ships) };
}

/**
 * Locks, in one statement and the global order, the member's Credits row and, when items are involved
 * (`withItems`), the member's and the sale's chip rows. Returns the balances read and the sale (null
 * without items, or before the sale is seeded).
 */
export async function lockForItems(
  tx: Tx,
  userId: string,
  withItems: boolean,
): Promise<{ balances: BatchBalances; sale: Sale | null }> {
  const sale = withItems ? await findSale(tx) : null;
  const userIds = sale ? [userId, sale.saleId] : [userId];
  const currencyIds = sale ? [CREDITS_CURRENCY_ID, sale.chipCurrencyId] : [CREDITS_CURRENCY_ID];
  const locked = await lockBalances(tx, 'checkout_items_lock', { userIds, currencyIds });
  if (!locked) throw new Error('the balance lock returned no row');
  return { balances: locked.balances, sale };
}

/** What a completion grants: the chip entry to post with the Credits, and what to do after posting. */
export interface ItemGrant {
  entries: Entry[];
  chipsGranted: number;
  chipsOwed: number;
  ships: number;
  sale: Sale | null;
}

/** A package without items grants nothing. */
export const NO_GRANT: ItemGrant = { entries: [], chipsGranted: 0, chipsOwed: 0, ships: 0, sale: null };

/**
 * Plans the grant of `items` to checkout `c`'s member, after `lockForItems`: chips up to what the sale
 * holds (`balances`), the rest owed; ships to create once posted.
 */
export function planGrant(
  c: CheckoutRow,
  items: readonly PackageItem[],
  balances: BatchBalances,
  sale: Sale | null,
): ItemGrant {
  const { chips, ships } = countItems(items);
  const held = sale ? wholeUnitsOf(balances.of(sale.saleId, sale.chipCurrencyId)) : 0;
  const chipsGranted = Math.min(chips, held);
  const entries: Entry[] =
    sale && chipsGranted > 0
      ? [
          {
            category: TX_CATEGORY.Transfer,
            currencyId: sale.chipCurrencyId,
            amount: wholeUnits(chipsGranted),
            executorId: null,
            senderId: sale.saleId,
            recipientId: c.userId,
            reference: c.id,
            note: `Checkout: ${c.packageName}`,
          },
        ]
      : [];
  return { entries, chipsGranted, chipsOwed: chips - chipsGranted, ships: sale ? ships : 0, sale };
}

/**
 * Creates the planned ships (after the posting), naming the checkout, and names their collection in
 * `changes`. Returns how many.
 */
export async function createGrantedShips(
  tx: Tx,
  c: CheckoutRow,
  grant: ItemGrant,
  changes: LiveChanges,
): Promise<number> {
  if (!grant.sale || grant.ships === 0) return 0;
  const created = await createShips(tx, grant.sale, Array<string>(grant.ships).fill(c.userId), c.id);
  changes.touchCollection(grant.sale.shipsCollectionId);
  return created.length;
}

/**
 * The entry that gives back to the sale the chips checkout `c` granted that its member still holds
 * (`balances`, locked by `lockForItems`), or none.
 */
export function chipsBackEntry(c: CheckoutRow, balances: BatchBalances, sale: Sale | null, note: string): Entry[] {
  if (!sale || c.chipsGranted === 0) return [];
  const back = Math.min(c.chipsGranted, wholeUnitsOf(balances.of(c.userId, sale.chipCurrencyId)));
  if (back === 0) return [];
  return [
    {
      category: TX_CATEGORY.Transfer,
      currencyId: sale.chipCurrencyId,
      amount: wholeUnits(back),
      executorId: null,
      senderId: c.userId,
      recipientId: sale.saleId,
      reference: c.id,
      note,
    },
  ];
}

/** Removes the ships checkout `c` granted that its member still owns, naming their collections in `changes`. Returns how many. */
export async function takeBackShips(tx: Tx, c: CheckoutRow, changes: LiveChanges): Promise<number> {
  const collections = await deleteCheckoutItems(tx, c.id, c.userId);
  for (const id of new Set(collections)) changes.touchCollection(id);
  return collections.length;
}

/**
 * Before a full refund or lost dispute takes back checkout `c`'s ships: cancels the open market listings
 * of the ships its member still owns, naming their collections in `changes`. Returns how many.
 * DESIGN §11.5 locks a listed item to its listing until it sells or is cancelled; a ship the refund
 * removes can be neither, so its listing is cancelled in the same transaction rather than left open on
 * an item that no longer exists (a buyer would find it unbuyable) or the ship left with a member whose
 * payment was reversed. Called before the balance locks: listings, then items, then balances, as a
 * purchase locks them.
 */
export async function cancelShipListings(tx: Tx, c: CheckoutRow, changes: LiveChanges): Promise<number> {
  const collections = await cancelCheckoutListings(tx, c.id, c.userId);
  for (const id of new Set(collections)) changes.touchCollection(id);
  return collections.length;
}
