/**
 * A full refund of a package and the items that moved on (DESIGN §7, §11.5): the ships the member gave
 * away or sold stay with their new owners; a ship the member still holds but has listed on the market is
 * taken back and its listing cancelled in the same transaction, so no listing is left open on an item that
 * no longer exists. Money is conserved and no balance goes negative.
 */
import type { CheckoutPackage, Item, Listing } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bankCalls } from './bank.helpers.ts';
import { buy, publishedPackage } from './checkout.helpers.ts';
import {
  balanceOf,
  call,
  expectLedgerBalanced,
  type Member,
  makeAppOnOwnDatabase,
  mint,
  registerMember,
  useTestApp,
} from './helpers.ts';
import { driftedMarketCounts } from './market.helpers.ts';

const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('checkout_market', { CHIP_SUPPLY: '40' }) });
const { newCurrency } = bankCalls(t);
let pkg: CheckoutPackage;
let coin: { currencyId: number };

beforeAll(async () => {
  pkg = await publishedPackage(t, { name: 'Fleet Pack', amount: '100', items: [{ type: 2, amount: 3 }] });
  coin = await newCurrency({ name: 'Refund Coin', precision: 2 });
});

async function itemsOf(m: Member): Promise<Item[]> {
  const res = await call(t.app, m.token, 'POST', '/api/inventory/getUserItems', { paging: { limit: 50, page: 1 } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function paidPack(m: Member): Promise<string> {
  const bought = await buy(t, m, pkg, 2);
  const paid = await call(t.app, m.token, 'POST', `/api/checkout/sandbox/${bought.checkout._id}/pay`, {});
  expect(paid.json().outcome).toBe('completed');
  return bought.checkout._id;
}

async function refund(m: Member, checkoutId: string): Promise<void> {
  const res = await call(t.app, m.token, 'POST', `/api/checkout/sandbox/${checkoutId}/refund`, {});
  expect(res.json().outcome).toBe('resolved');
}

const market = (m: Member, url: string, body: unknown, headers: Record<string, string> = {}) =>
  call(t.app, m.token, 'POST', `/api/market/${url}`, body, headers);

async function list(m: Member, item: Item, price: string): Promise<Listing> {
  const res = await market(m, 'createListing', { itemId: item._id, currencyId: coin.currencyId, price });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ listing: Listing }>().listing;
}

async function listingState(id: string): Promise<string | undefined> {
  const res = await t.built.database.db.execute<{ state: string }>(
    sql`SELECT state FROM market_listings WHERE id = ${id}`,
  );
  return res.rows[0]?.state;
}

describe('a full refund and the package items that moved on', () => {
  it('leaves a gifted ship and a sold ship with their new owners and takes back the one still held', async () => {
    const m = await registerMember(t.app, 'rfmover');
    const friend = await registerMember(t.app, 'rffriend');
    const buyer = await registerMember(t.app, 'rfbuyer');
    const checkoutId = await paidPack(m);
    const [gifted, sold, kept] = await itemsOf(m);
    if (!gifted || !sold || !kept) throw new Error('the pack granted fewer than three ships');

    const gift = await call(t.app, m.token, 'POST', '/api/inventory/giftItem', {
      itemId: gifted._id,
      recipientNickName: friend.nickname,
    });
    expect(gift.statusCode, gift.body).toBe(200);
    await mint(t.app, t.admin, buyer.nickname, coin.currencyId, '20');
    const listing = await list(m, sold, '12.5');
    const bought = await market(buyer, 'buy', { listingId: listing._id }, { 'idempotency-key': `rf-${listing._id}` });
    expect(bought.statusCode, bought.body).toBe(200);

    await refund(m, checkoutId);
    expect((await itemsOf(m)).map((i) => i._id)).toEqual([]);
    expect((await itemsOf(friend)).map((i) => i._id)).toEqual([gifted._id]);
    expect((await itemsOf(buyer)).map((i) => i._id)).toEqual([sold._id]);
    // The sale stays a sale: its price stays with the seller, its listing sold.
    expect(await listingState(listing._id)).toBe('sold');
    expect(await balanceOf(t.app, m, coin.currencyId)).toBe('12.5');
    expect(await balanceOf(t.app, buyer, coin.currencyId)).toBe('7.5');
    await expectLedgerBalanced(t.app, t.admin);
    expect(await driftedMarketCounts(t.built.database.db)).toEqual([]);
  });

  it('cancels the listing of a ship still held and takes the ship back, in one transaction', async () => {
    const m = await registerMember(t.app, 'rflister');
    const buyer = await registerMember(t.app, 'rflate');
    const checkoutId = await paidPack(m);
    const [listed] = await itemsOf(m);
    if (!listed) throw new Error('the pack granted no ship');
    const listing = await list(m, listed, '3');

    await refund(m, checkoutId);
    expect(await itemsOf(m)).toEqual([]);
    expect(await listingState(listing._id)).toBe('cancelled');
    const open = await call(t.app, undefined, 'POST', '/api/market/listings', { paging: { limit: 50, page: 1 } });
    expect(open.json<{ listings: Listing[] }>().listings.map((l) => l._id)).not.toContain(listing._id);
    const mine = await market(m, 'myListings', { paging: { limit: 10, page: 1 } });
    expect(mine.json<{ listings: Listing[] }>().listings[0]).toMatchObject({ _id: listing._id, state: 'cancelled' });

    // A late buyer is told it was cancelled and pays nothing.
    await mint(t.app, t.admin, buyer.nickname, coin.currencyId, '5');
    const late = await market(buyer, 'buy', { listingId: listing._id }, { 'idempotency-key': `late-${listing._id}` });
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json().message).toBe('This listing has been cancelled');
    expect(await balanceOf(t.app, buyer, coin.currencyId)).toBe('5');
    // A second refund event changes nothing more.
    await refund(m, checkoutId);
    expect(await listingState(listing._id)).toBe('cancelled');
    await expectLedgerBalanced(t.app, t.admin);
    expect(await driftedMarketCounts(t.built.database.db)).toEqual([]);
  });

  // expectLedgerBalanced also checks that no balance is negative.
  it('a refund racing a purchase of the listed ship: one wins, nothing dangles', async () => {
    const m = await registerMember(t.app, 'rfrace');
    const buyer = await registerMember(t.app, 'rfracer');
    const checkoutId = await paidPack(m);
    const [listed] = await itemsOf(m);
    if (!listed) throw new Error('the pack granted no ship');
    const listing = await list(m, listed, '2');
    await mint(t.app, t.admin, buyer.nickname, coin.currencyId, '2');

    const [bought] = await Promise.all([
      market(buyer, 'buy', { listingId: listing._id }, { 'idempotency-key': `race-${listing._id}` }),
      refund(m, checkoutId),
    ]);
    const state = await listingState(listing._id);
    const buyerItems = (await itemsOf(buyer)).map((i) => i._id);
    if (bought.statusCode === 200) {
      expect(state).toBe('sold');
      expect(buyerItems).toEqual([listed._id]);
      expect(await balanceOf(t.app, m, coin.currencyId)).toBe('2');
    } else {
      expect(bought.statusCode, bought.body).toBe(409);
      expect(state).toBe('cancelled');
      expect(buyerItems).toEqual([]);
      expect(await balanceOf(t.app, buyer, coin.currencyId)).toBe('2');
    }
    expect((await itemsOf(m)).map((i) => i._id)).not.toContain(listed._id);
    await expectLedgerBalanced(t.app, t.admin);
    expect(await driftedMarketCounts(t.built.database.db)).toEqual([]);
  });
});
