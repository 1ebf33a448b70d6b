/**
 * The member's portfolio (DESIGN §11.4 `portfolio`): holdings (balances and open orders' escrow) valued in
 * one currency through the last traded prices (a direct pair either way, or one intermediate), null
 * where no path exists, 30 days of history from the member's own ledger and the daily closes, only ever
 * the caller's own data, and clear refusals. On a database of its own: the history test backdates rows
 * and rebuilds the rollup, which the audit beside other files would take for tampering.
 */
import type { PortfolioResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rebuildLedgerRollup } from '../src/modules/reports/rollup.queries.ts';
import {
  createCurrency,
  createMarket,
  createPairBetween,
  exchangeCalls,
  fundedMember,
  type Market,
  placeOk,
} from './exchange.helpers.ts';
import {
  call,
  expectLedgerBalanced,
  type Member,
  makeAppOnOwnDatabase,
  mint,
  registerMember,
  useTestApp,
} from './helpers.ts';

const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('portfolio') });
const db = () => t.built.database.db;
const { placeWithOk } = exchangeCalls(t);

async function portfolio(member: Member, currencyId: unknown): Promise<PortfolioResponse> {
  const res = await call(t.app, member.token, 'POST', '/api/cex/portfolio', { currencyId });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PortfolioResponse>();
}

/** A trade on `pair` at `price` for `amount`, between two fresh members. */
async function trade(pair: Market, amount: string, price: string) {
  const seller = await fundedMember(t.app, t.admin, { [pair.base.currencyId]: amount });
  const buyer = await fundedMember(t.app, t.admin, { [pair.quote.currencyId]: '1000000' });
  await placeOk(t.app, seller, pair.pair._id, false, amount, price);
  const res = await placeOk(t.app, buyer, pair.pair._id, true, amount, price);
  expect(res.trades).toHaveLength(1);
}

const byCurrency = (p: PortfolioResponse) => new Map(p.holdings.map((h) => [h.currencyId, h]));

describe('POST /api/cex/portfolio', () => {
  it('values holdings and open orders through direct, inverse and one-step paths; says when there is none', async () => {
    // T the target; A/T trades at 2.5, T/B at 4 (a B is 0.25 T), C/A at 3 (a C is 7.5 T); D has no pair.
    const at = await createMarket(t.app, t.admin);
    const T = at.quote;
    const A = at.base;
    const B = await createCurrency(t.app, t.admin);
    const C = await createCurrency(t.app, t.admin, 3);
    const D = await createCurrency(t.app, t.admin);
    const tb = await createPairBetween(t.app, t.admin, T, B);
    const ca = await createPairBetween(t.app, t.admin, C, A);
    await trade(at, '1', '2');
    await trade(at, '1', '2.5'); // the last trade sets the price
    await trade(tb, '1', '4');
    await trade(ca, '1', '3');

    const m = await fundedMember(t.app, t.admin, {
      [T.currencyId]: '10',
      [A.currencyId]: '4',
      [B.currencyId]: '2',
      [C.currencyId]: '1',
      [D.currencyId]: '5',
    });
    // An open buy of 1 A at 2 sets 2 T aside: still the member's, so still 10 T in the portfolio.
    await placeOk(t.app, m, at.pair._id, true, '1', '2');
    // A waiting stop sell of 1 A sets that A aside: still the member's too.
    await placeWithOk(m, at, { buySide: false, type: 'stop_limit', initialAmount: '1', price: '1', stopPrice: '1' });
    const other = await fundedMember(t.app, t.admin, { [T.currencyId]: '999', [B.currencyId]: '77' });

    const inT = await portfolio(m, T.currencyId);
    expect(inT.holdings).toEqual(
      [
        { currencyId: A.currencyId, amount: '4.00', price: '2.5', value: '10.00' },
        { currencyId: T.currencyId, amount: '10.00', price: '1', value: '10.00' },
        { currencyId: B.currencyId, amount: '2.00', price: '0.25', value: '0.50' },
        { currencyId: C.currencyId, amount: '1.000', price: '7.5', value: '7.50' },
        { currencyId: D.currencyId, amount: '5.00', price: null, value: null },
      ].sort((x, y) => x.currencyId - y.currencyId),
    );
    expect(inT.value).toBe('28.00');
    expect(inT.message).toBe(`Got 5 holding(s) valued in ${T.ticker}; no price path to ${T.ticker} for 1`);
    expect(inT.history).toHaveLength(30);
    expect(inT.history.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), value: '23.50' }); // no escrow

    // In C (precision 3): T -> A -> C is 0.4 / 3 a T, kept exact until the value is rounded down once.
    const inC = byCurrency(await portfolio(m, C.currencyId));
    expect(inC.get(T.currencyId)).toMatchObject({ price: '0.133333333', value: '1.333' });
    expect(inC.get(C.currencyId)).toMatchObject({ price: '1', value: '1.000' });
    expect(inC.get(A.currencyId)).toMatchObject({ price: '0.333333333', value: '1.333' });
    // B -> T -> A: 0.25 x 0.4; B in B is itself. D stays without a path in any currency.
    expect(byCurrency(await portfolio(m, A.currencyId)).get(B.currencyId)).toMatchObject({
      price: '0.1',
      value: '0.20',
    });
    expect(byCurrency(await portfolio(m, D.currencyId)).get(T.currencyId)).toMatchObject({ price: null, value: null });

    // Another member's holdings never show: theirs are theirs alone, and a new member has nothing.
    expect((await portfolio(other, T.currencyId)).holdings).toEqual(
      [
        { currencyId: T.currencyId, amount: '999.00', price: '1', value: '999.00' },
        { currencyId: B.currencyId, amount: '77.00', price: '0.25', value: '19.25' },
      ].sort((x, y) => x.currencyId - y.currencyId),
    );
    const empty = await portfolio(await registerMember(t.app, 'pf'), T.currencyId);
    expect(empty).toMatchObject({ value: '0.00', holdings: [] });
    expect(empty.history.every((p) => p.value === '0.00')).toBe(true);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('answers members only, with a read-scoped key too, and refuses a bad currency clearly', async () => {
    const m = await registerMember(t.app, 'pf');
    expect((await call(t.app, undefined, 'POST', '/api/cex/portfolio', { currencyId: 1 })).statusCode).toBe(401);
    const bad = await call(t.app, m.token, 'POST', '/api/cex/portfolio', { currencyId: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/currencyId/);
    const missing = await call(t.app, m.token, 'POST', '/api/cex/portfolio', { currencyId: 987654 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ message: string }>().message).toBe('Currency not found');

    const key = async (scopes: string[]) => {
      const res = await call(t.app, m.token, 'POST', '/api/user/apiKeys/create', { name: scopes.join('-'), scopes });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ secret: string }>().secret;
    };
    const withKey = (secret: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/cex/portfolio',
        headers: { 'x-api-key': secret },
        payload: { currencyId: 1 },
      });
    expect((await withKey(await key(['read']))).statusCode).toBe(200);
    expect((await withKey(await key(['trade']))).statusCode).toBe(403);
  });

  it("draws 30 days from the member's ledger and each day's last close", async () => {
    const mk = await createMarket(t.app, t.admin);
    const m = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '10' });
    const o = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '3' });
    await trade(mk, '1', '2');
    await trade(mk, '1', '3');
    await trade(mk, '1', '5');
    // The API always writes "now": move the rows into the past (the ledger's trigger is off for this
    // replication session alone), then rebuild the rollup and the candles over them.
    await db().transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(sql`SELECT pg_stat_force_next_flush()`);
      await tx.execute(sql`
        UPDATE bank_transactions SET created_at = now() - interval '5 days'
         WHERE currency_id = ${mk.base.currencyId} AND recipient_id = ${m.id}`);
      await tx.execute(sql`
        UPDATE bank_transactions SET created_at = now() - interval '40 days'
         WHERE currency_id = ${mk.base.currencyId} AND recipient_id = ${o.id}`);
      await tx.execute(sql`
        UPDATE exchange_trades SET created_at = now() - CASE price WHEN 2 THEN interval '10 days'
                                                                  WHEN 3 THEN interval '2 days' ELSE interval '0' END
         WHERE pair_id = ${mk.pair._id}`);
    });
    await rebuildLedgerRollup(db());
    await mint(t.app, t.admin, m.nickname, mk.base.currencyId, '5');
    const transfer = await call(t.app, m.token, 'POST', '/api/bank/p2pTransfer', {
      recipientNickName: o.nickname,
      currencyId: mk.base.currencyId,
      amount: '1',
    });
    expect(transfer.statusCode, transfer.body).toBe(200);

    const p = await portfolio(m, mk.quote.currencyId);
    expect(p.value).toBe('70.00'); // 14 at the last trade, 5
    const values = p.history.map((h) => h.value);
    expect(values.slice(0, 24).every((v) => v === '0.00')).toBe(true);
    // 5 days ago 10 at 2 (the close of 10 days ago); 2 days ago at 3; today 14 at 5.
    expect(values.slice(24)).toEqual(['20.00', '20.00', '20.00', '30.00', '30.00', '70.00']);
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    expect(p.history.map((h) => h.date)).toEqual(Array.from({ length: 30 }, (_, i) => day(29 - i)));
    // The other member's own rows: 3 from 40 days back (no price before the first trade), 1 more today.
    const q = await portfolio(o, mk.quote.currencyId);
    const expected = [...Array(19).fill('0.00'), ...Array(8).fill('6.00'), '9.00', '9.00', '20.00'];
    expect(q.history.map((h) => h.value)).toEqual(expected);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
