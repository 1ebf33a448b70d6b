import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inTransaction } from '../src/db/transaction.ts';
import { withLiveChanges } from '../src/http/money-moving.ts';
import { withJobLock } from '../src/lib/periodic.ts';
import { expireDueOrders } from '../src/modules/exchange/orders.expiry.ts';
import {
  createMarket,
  exchangeCalls,
  expectBookConsistent,
  fundedMember,
  ordersOf,
  placeOk,
} from './exchange.helpers.ts';
import { balanceOf, eventually, expectLedgerBalanced, type Member, useTestApp } from './helpers.ts';

const t = useTestApp();
const { cancel, ledgerRows, placeWith, placeWithOk } = exchangeCalls(t);

const inAMinute = () => new Date(Date.now() + 60_000).toISOString();

/** Runs the expiry job's work once as if it were `now`, publishing what it changed as the job does. */
function expireAt(now: Date) {
  return withLiveChanges(t.app.live.changes, (changes) =>
    withJobLock(t.built.database.db, 'expire-orders', (tx) => expireDueOrders(tx, changes, now)),
  );
}

/**
 * `member`'s orders once order `id` is no longer open: the kept list of their orders is dropped when the
 * change reaches the bus, a moment after the commit.
 */
function ordersOnceClosed(member: Member, id: string) {
  return eventually(
    () => ordersOf(t.app, member),
    (orders) => orders.find((o) => o._id === id)?.state !== 1,
  );
}

describe('expiring orders', () => {
  it('cancels an open order at its time with its unfilled escrow back, and leaves the others', async () => {
    const mk = await createMarket(t.app, t.admin);
    const buyer = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    const expiresAt = inAMinute();
    const gtd = await placeWithOk(buyer, mk, { buySide: true, initialAmount: '2', price: '1.5', expiresAt });
    expect(gtd.order).toMatchObject({ state: 1, expiresAt });
    const gtc = await placeOk(t.app, buyer, mk.pair._id, true, '1', '1');
    const seller = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '5' });
    await placeOk(t.app, seller, mk.pair._id, false, '1', '1.5'); // fills half of the expiring order

    // Not yet due: nothing happens.
    await expireAt(new Date());
    expect((await ordersOf(t.app, buyer)).find((o) => o._id === gtd.order._id)?.state).toBe(1);

    expect(await expireAt(new Date(Date.now() + 120_000))).toBeGreaterThanOrEqual(1);
    const mine = await ordersOnceClosed(buyer, gtd.order._id);
    expect(mine.find((o) => o._id === gtd.order._id)).toMatchObject({ state: 2, filledAmount: '1.00', expired: true });
    expect(mine.find((o) => o._id === gtc.order._id)).toMatchObject({ state: 1, expired: false });
    // 10 less 3.00 escrowed and 1.00 held by the other order, plus 1.50 back at expiry.
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('7.5');
    expect(await ledgerRows(gtd.order._id)).toEqual([
      { category: 20, amount: '3', sender_id: buyer.id, recipient_id: null, escrow: true },
      { category: 22, amount: '1.5', sender_id: null, recipient_id: seller.id, escrow: true },
      { category: 21, amount: '1.5', sender_id: null, recipient_id: buyer.id, escrow: true },
    ]);
    // Run again: nothing twice.
    await expireAt(new Date(Date.now() + 120_000));
    expect((await ledgerRows(gtd.order._id)).length).toBe(3);
    await expectBookConsistent(t.built, mk.pair._id, mk.quote.precision);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('reads a good-till-date order its member cancelled as cancelled, not expired', async () => {
    const mk = await createMarket(t.app, t.admin);
    const buyer = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    const gtd = await placeWithOk(buyer, mk, { buySide: true, initialAmount: '1', price: '2', expiresAt: inAMinute() });
    expect((await cancel(buyer, gtd.order._id)).statusCode).toBe(200);
    await expireAt(new Date(Date.now() + 120_000));
    const mine = await ordersOnceClosed(buyer, gtd.order._id);
    expect(mine.find((o) => o._id === gtd.order._id)).toMatchObject({ state: 2, expired: false });
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('10');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('leaves an order a fill closed before its time', async () => {
    const mk = await createMarket(t.app, t.admin);
    const buyer = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    const gtd = await placeWithOk(buyer, mk, { buySide: true, initialAmount: '1', price: '2', expiresAt: inAMinute() });
    const seller = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '5' });
    await placeOk(t.app, seller, mk.pair._id, false, '1', '2');
    await expireAt(new Date(Date.now() + 120_000));
    expect((await ordersOnceClosed(buyer, gtd.order._id)).find((o) => o._id === gtd.order._id)?.state).toBe(3);
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('8');
    await expectBookConsistent(t.built, mk.pair._id, mk.quote.precision);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('reads the index of expiring open orders', async () => {
    const plan = await inTransaction(t.built.database.db, async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const res = await tx.execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN SELECT * FROM exchange_orders
        WHERE state IN (1, 5) AND expires_at IS NOT NULL AND expires_at <= now() ORDER BY expires_at LIMIT 500`);
      return res.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('exchange_orders_expiring');
  });

  it('refuses an expiry in the past, on an order that does not rest, or not a date, and nothing changes', async () => {
    const mk = await createMarket(t.app, t.admin);
    const me = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    const order = { buySide: true, initialAmount: '1', price: '1' };
    const past = await placeWith(me, mk, { ...order, expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe('"expiresAt" must be in the future');
    const ioc = await placeWith(me, mk, { ...order, timeInForce: 'IOC', expiresAt: inAMinute() });
    expect(ioc.statusCode).toBe(400);
    expect(ioc.json().message).toBe('Only a resting order can expire');
    const market = await placeWith(me, mk, {
      buySide: true,
      initialAmount: '1',
      type: 'market',
      expiresAt: inAMinute(),
    });
    expect(market.statusCode).toBe(400);
    expect((await placeWith(me, mk, { ...order, expiresAt: 'tomorrow' })).statusCode).toBe(400);
    expect(await ordersOf(t.app, me)).toEqual([]);
    expect(await balanceOf(t.app, me, mk.quote.currencyId)).toBe('10');
  });
});
