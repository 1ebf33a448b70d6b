/**
 * Alpha synth chips (DESIGN §7; SPEC §2 /synthchips, /openasc): a fixed supply held by the sale; a member
 * buys chips for Credits (500 each: Credits to the sale, chips to the member, both category 3) and opens
 * them (chips burned, category 33) into 5 ship items each, drawn from the published drop table. Both lock
 * the balance rows they touch through the ledger's protocol first, so a sale never oversells and a chip
 * opens once, however many requests race.
 */
import {
  AppError,
  amount,
  type BuySynthChipsResponse,
  CHIP_PRICE_CREDITS,
  CREDITS_CURRENCY_ID,
  DROP_TABLE,
  type DropTableResponse,
  fromNumeric,
  type OpenSynthChipsResponse,
  SHIPS_PER_CHIP,
  type SynthChipsResponse,
  shipImageUrl,
  TX_CATEGORY,
  UNIT,
} from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { pgArray } from '../../db/pg-array.ts';
import type { Outcome } from '../../lib/group-commit.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { findItems, insertItems } from '../items/items.queries.ts';
import { lockBalances } from '../ledger/ledger.balances.ts';
import { type Entry, postEntries } from '../ledger/ledger.posting.ts';
import { drawShip } from './chips.draw.ts';
import { chipsRemaining, findSale, type Sale } from './chips.queries.ts';

/** The sale, or NOT_FOUND when it has not been seeded. */
async function requireSale(db: DbOrTx): Promise<Sale> {
  const sale = await findSale(db);
  if (!sale) throw new AppError('NOT_FOUND', 'The synth chip sale is not open');
  return sale;
}

const chips = (n: number) => amount(BigInt(n) * UNIT);
const soldOut = (left: number) => (left <= 0 ? 'All Sold Out' : `Only ${left} synth chips left`);

/** `synthChips` (public): `{remaining, price, currencyId, message}`; the message is `All Sold Out` at 0. */
export async function synthChips(db: Db): Promise<SynthChipsResponse> {
  const sale = await requireSale(db);
  const remaining = await chipsRemaining(db, sale);
  return {
    remaining,
    price: `${CHIP_PRICE_CREDITS}.00`,
    currencyId: sale.chipCurrencyId,
    message: remaining === 0 ? 'All Sold Out' : `${remaining} synth chips left`,
  };
}

/** One purchase: who buys how many chips (SPEC §7 buySynthChips). */
export interface BuyJob {
  member: AuthUser;
  input: { amount: number };
}

/**
 * `buySynthChips {amount}` for a batch of members in `tx` (group commit, DESIGN §9: every purchase
 * moves the sale's two balance rows, so concurrent ones queue on them; a batch takes them once), as if
 * they came one after the other in the given order: one statement locks the sale's rows and the buyers'
 * (the ledger's order), each purchase is checked against what the earlier ones left, and one statement
 * posts them all. Each moves `amount` × 500 Credits to the sale and `amount` chips to the member (both
 * category 3). A refused purchase leaves no trace and does not stop the others; its outcome carries
 * CONFLICT `All Sold Out` / `Only N synth chips left` when the sale holds fewer, or `Insufficient funds`
 * when the member's Credits do not cover it. Throws NOT_FOUND when the sale is not open, and (rolling back
 * the whole batch) on a database failure.
 */
export async function buySynthChipsBatch(
  tx: Tx,
  jobs: readonly BuyJob[],
  changes: LiveChanges,
): Promise<Outcome<BuySynthChipsResponse>[]> {
  const sale = await requireSale(tx);
  const locked = await lockBalances(tx, 'chips_buy_lock', {
    userIds: sql`SELECT unnest(${pgArray([...new Set([sale.saleId, ...jobs.map((j) => j.member.id)])])}::bpchar[])`,
    currencyIds: sql`SELECT unnest(${pgArray([CREDITS_CURRENCY_ID, sale.chipCurrencyId])}::int[])`,
  });
  const balances = locked?.balances;
  const entries: Entry[] = [];
  const outcomes = jobs.map(({ member, input }): Outcome<BuySynthChipsResponse> => {
    const left = Number((balances?.of(sale.saleId, sale.chipCurrencyId) ?? 0n) / UNIT);
    if (left < input.amount) return { ok: false, error: new AppError('CONFLICT', soldOut(left)) };
    const cost = amount(fromNumeric(CHIP_PRICE_CREDITS) * BigInt(input.amount));
    if (!balances?.covers(member.id, CREDITS_CURRENCY_ID, cost)) {
      return { ok: false, error: new AppError('CONFLICT', 'Insufficient funds') };
    }
    const base = { category: TX_CATEGORY.Transfer, executorId: member.id, note: `Synth chips x${input.amount}` };
    const mine: Entry[] = [
      { ...base, currencyId: CREDITS_CURRENCY_ID, amount: cost, senderId: member.id, recipientId: sale.saleId },
      {
        ...base,
        currencyId: sale.chipCurrencyId,
        amount: chips(input.amount),
        senderId: sale.saleId,
        recipientId: member.id,
      },
    ];
    for (const e of mine) balances.apply(e);
    entries.push(...mine);
    changes.touchUser(member.id);
    return { ok: true, value: { remaining: left - input.amount, message: `Bought ${input.amount} synth chip(s)` } };
  });
  if (entries.length > 0) await postEntries(tx, entries);
  return outcomes;
}

/**
 * `buySynthChips {amount}` (member) in `tx`: `buySynthChipsBatch` with a batch of one. Answers
 * `{remaining, message}`; throws the purchase's error (see `buySynthChipsBatch`).
 */
export async function buySynthChips(
  tx: Tx,
  member: AuthUser,
  input: { amount: number },
  changes: LiveChanges,
): Promise<BuySynthChipsResponse> {
  const [outcome] = await buySynthChipsBatch(tx, [{ member, input }], changes);
  if (!outcome) throw new Error('no outcome');
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/**
 * `openSynthChips {amount}` (member) in `tx`: burns `amount` chips (category 33) and creates 5 ships per
 * chip in Alpha Ships for the member, drawn from the drop table. Answers `{createdItems, message}`.
 * Throws CONFLICT `Not enough synth chips` when the member holds fewer.
 */
export async function openSynthChips(
  tx: Tx,
  member: AuthUser,
  input: { amount: number },
  changes: LiveChanges,
): Promise<OpenSynthChipsResponse> {
  const sale = await requireSale(tx);
  const locked = await lockBalances(tx, 'chips_open_lock', {
    userIds: sql`SELECT ${member.id}::bpchar`,
    currencyIds: sql`SELECT ${sale.chipCurrencyId}::int`,
  });
  if (!locked?.balances.covers(member.id, sale.chipCurrencyId, chips(input.amount))) {
    throw new AppError('CONFLICT', 'Not enough synth chips');
  }
  await postEntries(tx, [
    {
      category: TX_CATEGORY.OpenedAlphaSynthChips,
      currencyId: sale.chipCurrencyId,
      amount: chips(input.amount),
      executorId: member.id,
      senderId: member.id,
      recipientId: null,
      note: `Opened ${input.amount} Alpha synth chip(s)`,
    },
  ]);
  const ids = await createShips(tx, sale, member.id, input.amount * SHIPS_PER_CHIP);
  const { data } = await findItems(tx, sql`i.id = ANY(${pgArray(ids)}::bpchar[])`, member.id, {
    limit: ids.length,
    page: 1,
  });
  changes.touchUser(member.id);
  changes.touchCollection(sale.shipsCollectionId);
  return { createdItems: data, message: `Opened ${input.amount} synth chip(s): ${ids.length} ships` };
}

/**
 * Creates `count` ships for `ownerId` in the sale's Alpha Ships collection, in `tx`, each drawn from the
 * drop table with a CSPRNG (DESIGN §7). `checkoutId` names the purchase whose package granted them (null
 * for ships opened from chips). Returns the new items' ids.
 */
export function createShips(
  tx: Tx,
  sale: Sale,
  ownerId: string,
  count: number,
  checkoutId: string | null = null,
): Promise<string[]> {
  const drawn = Array.from({ length: count }, () => drawShip());
  return insertItems(
    tx,
    drawn.map((d) => ({
      collectionId: sale.shipsCollectionId,
      ownerId,
      name: `Alpha ${d.ship}`,
      description: `A ${d.rarity.toLowerCase()} ${d.ship.toLowerCase()} from an Alpha synth chip`,
      imgUrl: shipImageUrl(d.ship),
      metadata: { rarity: d.rarity, class: d.ship },
      variabledata: {},
      hiddendata: {},
      checkoutId,
    })),
  );
}

/** `dropTable` (public): the rarities, their odds as fractions and their ships (DESIGN §7). */
export function dropTable(): DropTableResponse {
  return {
    table: DROP_TABLE.map((r) => ({ rarity: r.rarity, odds: (r.oddsBp / 10_000).toFixed(4), ships: [...r.ships] })),
    shipsPerChip: SHIPS_PER_CHIP,
    message: 'Drop table',
  };
}
