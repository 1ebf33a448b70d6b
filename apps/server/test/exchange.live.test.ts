/**
 * The live feed at /api/ws (DESIGN §1, §5): two server processes on one database keep one book and
 * both push the same events (LISTEN/NOTIFY); the socket protocol; the in-process bus on PGlite.
 */
import type { DepthResponse, GetOrdersResponse, Order, Trade, WsServerMessage } from '@starlight/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { createMarket, expectBookConsistent, fundedMember, ordersOf, place } from './exchange.helpers.ts';
import {
  amountValue,
  balanceOf,
  expectLedgerBalanced,
  type Member,
  makeApp,
  makePgliteApp,
  registerMember,
  useTestApp,
} from './helpers.ts';
import { LiveSocket } from './live-socket.ts';

const tradesIn = (messages: WsServerMessage[], pair: string): Set<string> =>
  new Set(messages.flatMap((m) => (m.type === 'trades' && m.pair === pair ? m.trades.map((t) => t._id) : [])));

describe('two server processes on one database', () => {
  const t = useTestApp();
  let a: BuiltApp;
  let b: BuiltApp;
  let admin: Member;
  beforeAll(async () => {
    a = t.built;
    admin = t.admin;
    b = await makeApp();
    await Promise.all([a.app.listen({ port: 0, host: '127.0.0.1' }), b.app.listen({ port: 0, host: '127.0.0.1' })]);
  });
  afterAll(() => b.app.close());

  it('keep one book for crossing orders sent to both, and both push the same events', async () => {
    const m = await createMarket(a.app, admin);
    const alice = await fundedMember(a.app, admin, { [m.base.currencyId]: '500', [m.quote.currencyId]: '5000' });
    const bob = await fundedMember(a.app, admin, { [m.base.currencyId]: '500', [m.quote.currencyId]: '5000' });

    // A visitor watches the pair on A; Bob watches it on B and is signed in there.
    const visitorOnA = await LiveSocket.open(a.app);
    visitorOnA.send({ type: 'subscribe', pair: m.pair._id });
    const bobOnB = await LiveSocket.open(b.app);
    bobOnB.send({ type: 'auth', token: bob.token });
    bobOnB.send({ type: 'subscribe', pair: m.pair._id });
    await visitorOnA.until((ms) => ms.some((x) => x.type === 'book'));
    await bobOnB.until((ms) => ms.some((x) => x.type === 'book') && ms.some((x) => x.type === 'orders'));
    expect(bobOnB.last('auth')?.user).toEqual({ _id: bob.id, nickname: bob.nickname, role: 'user' });

    const orders = Array.from({ length: 30 }, (_, i) => ({
      server: i % 2 === 0 ? a : b,
      who: i % 3 === 0 ? alice : bob,
      buySide: i % 2 === 1,
      qty: String(1 + (i % 5)),
      price: String(10 + (i % 4) - (i % 2 === 1 ? 0 : 1)),
    }));
    const results = await Promise.all(
      orders.map((o) => place(o.server.app, o.who, m.pair._id, o.buySide, o.qty, o.price)),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(30).fill(200));
    const tradeIds = new Set(results.flatMap((r) => r.json<{ trades: Trade[] }>().trades.map((t) => t._id)));
    expect(tradeIds.size).toBeGreaterThan(0);

    // One book: both servers answer the same, and it agrees with the ledger.
    await expectBookConsistent(a, m.pair._id, m.quote.precision);
    const bookA = await a.app.inject({ method: 'POST', url: '/api/cex/getOrders', payload: { pair: m.pair._id } });
    const bookB = await b.app.inject({ method: 'POST', url: '/api/cex/getOrders', payload: { pair: m.pair._id } });
    expect(bookA.json<GetOrdersResponse>().orders).toEqual(bookB.json<GetOrdersResponse>().orders);
    await expectLedgerBalanced(a.app, admin);

    // Both sockets hear every trade, whichever server took the order.
    const sameIds = (seen: Set<string>) => [...tradeIds].every((id) => seen.has(id));
    await visitorOnA.until((ms) => sameIds(tradesIn(ms, m.pair._id)));
    await bobOnB.until((ms) => sameIds(tradesIn(ms, m.pair._id)));
    // Their last book is the final book by price level, and carries no single orders.
    const depthA = await a.app.inject({ method: 'POST', url: '/api/cex/getDepth', payload: { pair: m.pair._id } });
    const finalDepth = depthA.json<DepthResponse>().depth;
    expect(finalDepth.buys.length + finalDepth.sells.length).toBeGreaterThan(0);
    for (const socket of [visitorOnA, bobOnB]) {
      await socket.until((ms) => {
        const last = ms.filter((x) => x.type === 'book').at(-1);
        return last?.type === 'book' && JSON.stringify(last.depth) === JSON.stringify(finalDepth);
      });
      expect(Object.keys(socket.last('book') ?? {}).sort()).toEqual(['depth', 'pair', 'type']);
    }
    // Bob's own orders and balances reach him on B, including what Alice's orders on A did to them.
    const bobOrders = await ordersOf(a.app, bob);
    await bobOnB.until((ms) => {
      const last = ms.filter((x) => x.type === 'orders').at(-1);
      return last?.type === 'orders' && JSON.stringify(last.orders) === JSON.stringify(bobOrders);
    });
    const bobQuote = await balanceOf(a.app, bob, m.quote.currencyId);
    await bobOnB.until((ms) => {
      const last = ms.filter((x) => x.type === 'balances').at(-1);
      return (
        last?.type === 'balances' &&
        amountValue(last.balances.find((x) => x.currencyId === m.quote.currencyId)?.amount) === bobQuote
      );
    });
    // The visitor never sees anyone's orders or balances.
    expect(visitorOnA.messages.some((x) => x.type === 'orders' || x.type === 'balances')).toBe(false);
    visitorOnA.close();
    bobOnB.close();
  });

  it('speaks the socket protocol: ping, bad messages, bad tokens, hidden pairs, header auth', async () => {
    const hidden = await createMarket(a.app, admin, { visible: false });
    const s = await LiveSocket.open(a.app);
    s.send({ type: 'ping' });
    await s.until((ms) => ms.some((x) => x.type === 'pong'));
    s.send('not json');
    await s.until((ms) => ms.some((x) => x.type === 'error' && x.message === 'Invalid message'));
    s.send({ type: 'subscribe', pair: 'short' });
    s.send({ type: 'auth', token: 'garbage' });
    await s.until((ms) => ms.some((x) => x.type === 'error' && x.message === 'Not authorized'));
    s.send({ type: 'subscribe', pair: hidden.pair._id });
    await s.until((ms) => ms.some((x) => x.type === 'error' && x.message === 'Pair not found'));
    // An admin may watch a hidden pair.
    s.send({ type: 'auth', token: admin.token });
    s.send({ type: 'subscribe', pair: hidden.pair._id });
    await s.until((ms) => ms.some((x) => x.type === 'book' && x.pair === hidden.pair._id));
    s.close();

    // A non-browser client may sign in with the Authorization header of the upgrade request.
    const member = await registerMember(a.app);
    const h = await LiveSocket.open(b.app, { authorization: `Bearer ${member.token}` });
    await h.until((ms) => ms.some((x) => x.type === 'auth'));
    await h.until((ms) => ms.some((x) => x.type === 'orders'));
    expect(h.last('orders')?.orders).toEqual([]);
    h.close();
  });

  it('pushes a member’s cancel to their sockets on the other server', async () => {
    const m = await createMarket(a.app, admin);
    const member = await fundedMember(a.app, admin, { [m.quote.currencyId]: '10' });
    const s = await LiveSocket.open(b.app);
    s.send({ type: 'auth', token: member.token });
    await s.until((ms) => ms.some((x) => x.type === 'orders'));
    const placed = await place(a.app, member, m.pair._id, true, '2', '3');
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json<{ order: Order }>().order._id;
    await s.until(() => s.last('orders')?.orders.some((o) => o._id === orderId && o.state === 1));
    await s.until(
      () => amountValue(s.last('balances')?.balances.find((x) => x.currencyId === m.quote.currencyId)?.amount) === '4',
    );
    const cancelled = await a.app.inject({
      method: 'POST',
      url: '/api/cex/cancelOrder',
      headers: { authorization: `Bearer ${member.token}` },
      payload: { orderId },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<{ message: string }>().message).toBe('Buy order cancelled');
    // The socket on B hears the cancel: the order Cancelled (2) and the escrow of 6 back, as the API says.
    await s.until(() => s.last('orders')?.orders.some((o) => o._id === orderId && o.state === 2));
    await s.until(
      () => amountValue(s.last('balances')?.balances.find((x) => x.currencyId === m.quote.currencyId)?.amount) === '10',
    );
    expect(s.last('orders')?.orders.map((o) => [o._id, o.state])).toEqual([[orderId, 2]]);
    expect(await balanceOf(a.app, member, m.quote.currencyId)).toBe('10');
    await expectLedgerBalanced(a.app, admin);
    s.close();
  });

  it('reach the recipient’s sockets on the other server: a transfer and a mint, live', async () => {
    const sender = await fundedMember(a.app, admin, { 2: '10' });
    const recipient = await registerMember(a.app, 'live');
    const s = await LiveSocket.open(b.app);
    s.send({ type: 'auth', token: recipient.token });
    await s.until((ms) => ms.some((x) => x.type === 'balances'));
    const sent = await a.app.inject({
      method: 'POST',
      url: '/api/bank/p2pTransfer',
      headers: { authorization: `Bearer ${sender.token}` },
      payload: { recipientNickName: recipient.nickname, currencyId: 2, amount: '4' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    await s.until(() => amountValue(s.last('balances')?.balances.find((x) => x.currencyId === 2)?.amount) === '4');
    const minted = await a.app.inject({
      method: 'POST',
      url: '/api/bank/mint',
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { recipientNickName: recipient.nickname, currencyId: 2, amount: '1.5', note: 'live mint' },
    });
    expect(minted.statusCode, minted.body).toBe(200);
    await s.until(() => amountValue(s.last('balances')?.balances.find((x) => x.currencyId === 2)?.amount) === '5.5');
    s.close();
  });
});

describe('on the embedded PGlite database', () => {
  const t = useTestApp({}, { build: makePgliteApp });
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('matches orders and pushes the trades through the in-process bus', async () => {
    const { app, admin, built } = t;
    expect(built.database.kind).toBe('pglite');
    const m = await createMarket(app, admin);
    const seller = await fundedMember(app, admin, { [m.base.currencyId]: '10' });
    const buyer = await fundedMember(app, admin, { [m.quote.currencyId]: '100' });
    const s = await LiveSocket.open(app);
    s.send({ type: 'subscribe', pair: m.pair._id });
    await s.until((ms) => ms.some((x) => x.type === 'trades'));
    expect((await place(app, seller, m.pair._id, false, '4', '2.5')).statusCode).toBe(200);
    const res = await place(app, buyer, m.pair._id, true, '3', '3');
    expect(res.statusCode).toBe(200);
    const tradeId = res.json<{ trades: Trade[] }>().trades[0]?._id ?? '';
    await s.until((ms) => tradesIn(ms, m.pair._id).has(tradeId));
    await s.until(() => s.last('book')?.depth.sells[0]?.amount === '1.00');
    expect(await balanceOf(app, buyer, m.quote.currencyId)).toBe('92.5');
    await expectBookConsistent(built, m.pair._id, m.quote.precision);
    await expectLedgerBalanced(app, admin);
    s.close();
  });
});
