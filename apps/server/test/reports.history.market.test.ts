/**
 * The ledger lists' `market` filter (`categoryGroup: "market"`, DESIGN §11.5's categories 50 Market
 * Purchase and 51 Market Royalty): the admin's Tnx Logs alone, with a currency, a nickname or an amount
 * bound, the member's own history and the CSV export list exactly the marketplace's rows, newest first,
 * with their total; an unknown group is refused.
 */
import type { Item, Listing, TransactionsResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bankCalls } from './bank.helpers.ts';
import { call, expectLedgerBalanced, type Member, mint, registerMember, useTestApp } from './helpers.ts';
import { newCreatorCollection } from './market.helpers.ts';

const t = useTestApp();
const { newCurrency, transfer, history, allHistory } = bankCalls(t);
let coin: { currencyId: number };
let seller: Member;
let buyers: Member[];

/** The ids of the ledger rows `where` selects, newest first. */
async function ledgerIds(where: ReturnType<typeof sql>): Promise<string[]> {
  const res = await t.built.database.db.execute<{ id: string }>(
    sql`SELECT id FROM bank_transactions t WHERE ${where} ORDER BY created_at DESC, id DESC`,
  );
  return res.rows.map((r) => r.id);
}

beforeAll(async () => {
  const { creator, collection } = await newCreatorCollection(t, 'hmc', 'Ledger Fleet', '0.1');
  coin = await newCurrency({ name: 'Ledger Coin', precision: 2 });
  seller = await registerMember(t.app, 'hms');
  buyers = [await registerMember(t.app, 'hmb'), await registerMember(t.app, 'hmd')];
  for (const [i, buyer] of buyers.entries()) {
    await mint(t.app, t.admin, buyer.nickname, coin.currencyId, '100');
    const created = await call(t.app, creator.token, 'POST', '/api/inventory/createItem', {
      itemCollection: collection._id,
      owner: seller.nickname,
      name: `Ledger Ship ${i}`,
    });
    const item = created.json<{ item: Item }>().item;
    const listed = await call(t.app, seller.token, 'POST', '/api/market/createListing', {
      itemId: item._id,
      currencyId: coin.currencyId,
      price: i === 0 ? '10' : '40',
    });
    const listing = listed.json<{ listing: Listing }>().listing;
    const bought = await call(
      t.app,
      buyer.token,
      'POST',
      '/api/market/buy',
      { listingId: listing._id },
      {
        'idempotency-key': `hm-${listing._id}`,
      },
    );
    expect(bought.statusCode, bought.body).toBe(200);
    // A plain transfer in the same currency, which the filter leaves out.
    expect((await transfer(buyer, seller.nickname, coin.currencyId, '1')).statusCode).toBe(200);
  }
});

const ids = (r: TransactionsResponse) => r.txs.map((x) => x._id);

describe('the market filter of the ledger lists', () => {
  it('Tnx Logs alone and within a currency: the rows of categories 50 and 51 only, newest first', async () => {
    const everyMarketRow = await ledgerIds(sql`t.category IN (50, 51)`);
    const all = await allHistory({ categoryGroup: 'market' });
    expect(ids(all)).toEqual(everyMarketRow.slice(0, 50));
    expect(all.total).toBe(everyMarketRow.length);

    const inCoin = await allHistory({ categoryGroup: 'market', currencyId: coin.currencyId });
    expect(inCoin.txs.map((x) => [x.category, x.balance.amount])).toEqual([
      [51, '4.00'],
      [50, '36.00'],
      [51, '1.00'],
      [50, '9.00'],
    ]);
    expect(inCoin.total).toBe(4);
    // A later page is empty and keeps the total.
    const past = await allHistory({
      categoryGroup: 'market',
      currencyId: coin.currencyId,
      paging: { limit: 10, page: 2 },
    });
    expect([past.txs.length, past.total]).toEqual([0, 4]);
    // With a single category, the group narrows nothing more; a category outside it matches nothing.
    expect((await allHistory({ categoryGroup: 'market', category: 51, currencyId: coin.currencyId })).total).toBe(2);
    expect((await allHistory({ categoryGroup: 'market', category: 3, currencyId: coin.currencyId })).total).toBe(0);
  });

  it('with a nickname, an amount bound, and in the member own history', async () => {
    const [first, second] = buyers as [Member, Member];
    const byBuyer = await allHistory({ categoryGroup: 'market', nickname: first.nickname });
    expect(byBuyer.txs.map((x) => [x.category, x.sender?.nickname])).toEqual([
      [51, first.nickname],
      [50, first.nickname],
    ]);
    const big = await allHistory({ categoryGroup: 'market', amountAbove: '5' });
    expect(big.txs.every((x) => [50, 51].includes(x.category) && Number(x.balance.amount) >= 5)).toBe(true);
    expect(ids(big)).toEqual((await ledgerIds(sql`t.category IN (50, 51) AND t.amount >= 5`)).slice(0, 50));
    const own = await history(seller, { categoryGroup: 'market' });
    expect(own.txs.map((x) => [x.category, x.sender?.nickname, x.balance.amount])).toEqual([
      [50, second.nickname, '36.00'],
      [50, first.nickname, '9.00'],
    ]);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('the CSV export takes the filter; an unknown group is refused', async () => {
    const csv = await call(
      t.app,
      t.admin.token,
      'GET',
      `/api/bank/alltransactions.csv?categoryGroup=market&currencyId=${coin.currencyId}`,
    );
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.body.trim().split('\r\n').slice(1);
    expect(lines).toHaveLength(4);
    expect(lines.filter((l) => l.includes('Market Royalty'))).toHaveLength(2);
    const bad = await call(t.app, t.admin.token, 'POST', '/api/bank/alltransactions', {
      paging: { limit: 10, page: 1 },
      categoryGroup: 'exchange',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('"categoryGroup" contains an invalid value');
  });
});
