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
  type Item,
  type OpenSynthChipsResponse,
  SHIPS_PER_CHIP,
  type SynthChipsResponse,
  shipImageUrl,
  TX_CATEGORY,
  wholeUnits,
  wholeUnitsOf,
} from '@starlight/shared';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { AuthUser } from '../../http/access.ts';
import { type Outcome, onlyOutcome } from '../../lib/group-commit.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { insertItems, insertItemsAlong, type NewItem } from '../items/items.public.ts';
import { type Entry, lockBalances, postEntries } from '../ledger/ledger.public.ts';
import { insertNotificationsAlong } from '../notifications/notifications.public.ts';
import { drawShip } from './chips.draw.ts';
import { chipsRemaining, findSale, lockForOpening, type Sale, withNotifications } from './chips.queries.ts';

/** The sale, or NOT_FOUND when it has not been seeded. */
async function requireSale(db: DbOrTx): Promise<Sale> {
  const sale = await findSale(db);
  if (!sale) throw new AppError('NOT_FOUND', 'The synth chip sale is not open');
  return sale;
}

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
    userIds: [...new Set([sale.saleId, ...jobs.map((j) => j.member.id)])],
    currencyIds: [CREDITS_CURRENCY_ID, sale.chipCurrencyId],
  });
  const balances = locked?.balances;
  const entries: Entry[] = [];
  const outcomes = jobs.map(({ member, input }): Outcome<BuySynthChipsResponse> => {
    const left = wholeUnitsOf(balances?.of(sale.saleId, sale.chipCurrencyId) ?? 0n);
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
        amount: wholeUnits(input.amount),
        senderId: sale.saleId,
        recipientId: member.id,
      },
    ];
    for (const e of mine) balances.apply(e);
    entries.push(...mine);
    changes.touchUser(member.id);
    return { ok: true, value: { remaining: left - input.amount, message: `Bought ${input.amount} synth chip(s)` } };
  });
  if (entries.length > 0) await postEntries(tx, entries, changes);
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
  return onlyOutcome(buySynthChipsBatch(tx, [{ member, input }], changes));
}

/** One opening: who opens how many chips (SPEC §7 openSynthChips). */
export interface OpenJob {
  member: AuthUser;
  input: { amount: number };
}

/**
 * `openSynthChips {amount}` for a batch of members in `tx` (group commit, DESIGN §9), as if they came one
 * after the other in the given order: one statement reads the sale and locks the openers' chip rows (the
 * ledger's order), each opening is checked against what the earlier ones left, then one statement burns
 * the chips (category 33) and one creates 5 ships per chip in Alpha Ships for their openers, drawn from
 * the drop table. An accepted opening answers `{createdItems, message}`; a refused
 * one leaves no trace and does not stop the others, its outcome carrying CONFLICT `Not enough synth chips`
 * when the member holds fewer. Throws NOT_FOUND when the sale is not open, and (rolling back the whole
 * batch) on a database failure.
 */
export async function openSynthChipsBatch(
  tx: Tx,
  jobs: readonly OpenJob[],
  changes: LiveChanges,
): Promise<Outcome<OpenSynthChipsResponse>[]> {
  const locked = await lockForOpening(tx, [...new Set(jobs.map((j) => j.member.id))]);
  if (!locked) throw new AppError('NOT_FOUND', 'The synth chip sale is not open');
  const { balances, sale, now } = locked;
  const entries: Entry[] = [];
  const opened: Array<{ index: number; member: AuthUser; ships: number }> = [];
  const outcomes: Array<Outcome<OpenSynthChipsResponse> | null> = jobs.map(({ member, input }, index) => {
    if (!balances.covers(member.id, sale.chipCurrencyId, wholeUnits(input.amount))) {
      return { ok: false, error: new AppError('CONFLICT', 'Not enough synth chips') };
    }
    const entry: Entry = {
      category: TX_CATEGORY.OpenedAlphaSynthChips,
      currencyId: sale.chipCurrencyId,
      amount: wholeUnits(input.amount),
      executorId: member.id,
      senderId: member.id,
      recipientId: null,
      note: `Opened ${input.amount} Alpha synth chip(s)`,
    };
    balances.apply(entry);
    entries.push(entry);
    opened.push({ index, member, ships: input.amount * SHIPS_PER_CHIP });
    changes.touchUser(member.id);
    return null;
  });
  if (opened.length > 0) {
    const rows = drawShips(
      sale,
      opened.flatMap((o) => Array<string>(o.ships).fill(o.member.id)),
      null,
    );
    // The ships are inserted by the posting's own statement: one round trip for the batch.
    const { ids, along } = insertItemsAlong('chips_open_post', rows);
    // Each opener hears of their ships (items_received) from the same statement.
    const notified = insertNotificationsAlong(
      opened.map((o) => ({
        userId: o.member.id,
        kind: 'items_received',
        title: `You received ${o.ships} ships`,
        body: `Opening ${o.ships / SHIPS_PER_CHIP} Alpha synth chip(s) brought you ${o.ships} Alpha ships.`,
        link: '/userbank',
      })),
    );
    await postEntries(tx, entries, changes, withNotifications('chips_open_post_notify', along, notified));
    changes.touchNotifications(notified.ids);
    changes.touchCollection(sale.shipsCollectionId);
    // The answer is what was inserted, stamped with the transaction's time (read in the lock statement):
    // reading the ships back cost more than the rest of the batch.
    const createdAt = now.toISOString();
    const created = ids.map((id, k): Item => {
      const item = rows[k] as NewItem;
      return {
        _id: id,
        itemCollection: item.collectionId,
        owner: { nickname: '' },
        name: item.name,
        description: item.description,
        imgUrl: item.imgUrl,
        metadata: item.metadata,
        variabledata: item.variabledata,
        createdAt,
      };
    });
    let next = 0;
    for (const o of opened) {
      // Newest first, as a list of the member's items shows them: one creation time, ids descending.
      const createdItems = created
        .slice(next, next + o.ships)
        .map((item) => ({ ...item, owner: { nickname: o.member.nickname } }))
        .reverse();
      next += o.ships;
      outcomes[o.index] = {
        ok: true,
        value: { createdItems, message: `Opened ${o.ships / SHIPS_PER_CHIP} synth chip(s): ${o.ships} ships` },
      };
    }
  }
  return outcomes.map((o) => o ?? { ok: false, error: new Error('opening left without an outcome') });
}

/**
 * `openSynthChips {amount}` (member) in `tx`: `openSynthChipsBatch` with a batch of one. Answers
 * `{createdItems, message}`; throws the opening's error (see `openSynthChipsBatch`).
 */
export async function openSynthChips(
  tx: Tx,
  member: AuthUser,
  input: { amount: number },
  changes: LiveChanges,
): Promise<OpenSynthChipsResponse> {
  return onlyOutcome(openSynthChipsBatch(tx, [{ member, input }], changes));
}

/**
 * One ship in the sale's Alpha Ships collection for each of `owners` (an owner id per ship, in order),
 * each drawn from the drop table with a CSPRNG (DESIGN §7), as rows to insert. `checkoutId` names the
 * purchase whose package granted them (null for ships opened from chips).
 */
/** `word` after its indefinite article: "an uncommon", "an epic", "a rare". */
function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'An' : 'A'} ${word}`;
}

function drawShips(sale: Sale, owners: readonly string[], checkoutId: string | null): NewItem[] {
  return owners.map((ownerId) => {
    const d = drawShip();
    return {
      collectionId: sale.shipsCollectionId,
      ownerId,
      name: `Alpha ${d.ship}`,
      description: `${withArticle(d.rarity.toLowerCase())} ${d.ship.toLowerCase()} from an Alpha synth chip`,
      imgUrl: shipImageUrl(d.ship),
      metadata: { rarity: d.rarity, class: d.ship },
      variabledata: {},
      hiddendata: {},
      checkoutId,
    };
  });
}

/**
 * Creates one ship for each of `owners` (`drawShips`) in `tx`, in one statement. Returns the new items'
 * ids, in the order of `owners`.
 */
export function createShips(
  tx: Tx,
  sale: Sale,
  owners: readonly string[],
  checkoutId: string | null = null,
): Promise<string[]> {
  return insertItems(tx, drawShips(sale, owners, checkoutId));
}

/** `dropTable` (public): the rarities, their odds as fractions and their ships (DESIGN §7). */
export function dropTable(): DropTableResponse {
  return {
    table: DROP_TABLE.map((r) => ({ rarity: r.rarity, odds: (r.oddsBp / 10_000).toFixed(4), ships: [...r.ships] })),
    shipsPerChip: SHIPS_PER_CHIP,
    message: 'Drop table',
  };
}
