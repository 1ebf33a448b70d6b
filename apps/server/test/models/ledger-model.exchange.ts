/**
 * The ledger model's exchange commands (composed by ledger-model.ts): orders placed on the run's pair,
 * self-trade prevention provoked (an order and then the opposite one at the same price), and cancels.
 * Their fills are not re-derived: the model takes the pair's balances from the API, checks the book
 * against the escrow, and checks that a member's own orders are never filled by them, only cancelled.
 */
import { fromNumeric, type Order } from '@starlight/shared';
import fc from 'fast-check';
import { expect } from 'vitest';
import { call, type Member } from '../helpers.ts';
import {
  CENT,
  type CommandArb,
  type Model,
  type ModelContext,
  permille,
  portion,
  type Real,
  text,
  who,
} from './ledger-model.state.ts';

/** The exchange commands of a model run, as arbitraries. */
export function exchangeCommands({ t, stats, expectMatches, adoptPairBalances, pendingStops }: ModelContext) {
  /** A member's orders on the run's pair by id: side, price, filled amount and state. */
  async function ownOrders(member: Member | undefined, pair: string): Promise<Map<string, Order>> {
    const res = await call(t.app, member?.token, 'GET', '/api/cex/getUserOrders');
    expect(res.statusCode, res.body).toBe(200);
    return new Map(
      res
        .json<{ orders: Order[] }>()
        .orders.filter((o) => o.pair === pair)
        .map((o) => [o._id, o]),
    );
  }

  /** Whether a stop of `before` (the pending stops before a placement) has triggered since. */
  async function triggeredAny(m: Model, r: Real, before: Set<string>): Promise<boolean> {
    if (before.size === 0) return false;
    const now = await pendingStops(m, r);
    return [...before].some((id) => !now.has(id));
  }

  /**
   * Self-trade prevention on the member's own orders across one placement (`before` and `after` their
   * orders, `note` the placement's answer, null when refused): none of their open orders gained a fill;
   * those that closed were cancelled (2), on the other side, crossing the new order's price, and the note
   * names as many (it may name more: `getUserOrders` lists only the newest orders).
   */
  function expectSelfTradePrevented(
    before: Map<string, Order>,
    after: Map<string, Order>,
    placed: { buySide: boolean; price: bigint; note: string | null },
  ): void {
    const named = placed.note?.match(
      /your (?:(\d+) )?resting (buy|sell) orders? at .+ cancelled to prevent a self-trade$/,
    );
    let cancelled = 0;
    for (const [id, was] of before) {
      const now = after.get(id);
      if (was.state !== 1 || !now) continue;
      expect(now.filledAmount, `own order ${id} is never filled by its owner`).toBe(was.filledAmount);
      if (now.state === 1) continue;
      cancelled++;
      expect(now.state, `own order ${id} closed only by self-trade prevention`).toBe(2);
      expect(was.buySide).toBe(!placed.buySide);
      const price = fromNumeric(was.price);
      expect(placed.buySide ? price <= placed.price : price >= placed.price).toBe(true);
    }
    if (!named) expect(cancelled, 'no self-trade cancel without a note').toBe(0);
    else {
      expect(named[2]).toBe(placed.buySide ? 'sell' : 'buy');
      expect(cancelled).toBeLessThanOrEqual(named[1] ? Number(named[1]) : 1);
    }
    stats.checks++;
  }

  class PlaceOrderCommand implements fc.AsyncCommand<Model, Real> {
    readonly who: number;
    readonly buySide: boolean;
    readonly permille: number;
    readonly priceCents: number;
    constructor(who: number, buySide: boolean, permille: number, priceCents: number) {
      this.who = who;
      this.buySide = buySide;
      this.permille = permille;
      this.priceCents = priceCents;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      // A quantity of the target currency: a portion of what the member holds (a buy may not be covered).
      const quantity = portion(m, this.who, m.target, this.permille);
      const member = r.members[this.who];
      const [before, stops] = [await ownOrders(member, r.pair), await pendingStops(m, r)];
      const price = BigInt(this.priceCents) * CENT;
      const res = await call(t.app, member?.token, 'POST', '/api/cex/placeOrder', {
        pair: r.pair,
        buySide: this.buySide,
        initialAmount: text(quantity),
        price: text(price),
      });
      // Refused: not covered (409), or worth less than one unit of SN (400, SPEC §5 precision).
      expect([200, 400, 409], res.body).toContain(res.statusCode);
      if (res.statusCode === 409) expect(res.json().message).toBe('Insufficient funds');
      if (res.statusCode === 400) expect(res.json().message).toBe('The order is worth less than 0.01 SN');
      const note = res.statusCode === 200 ? res.json<{ tx: { note: string } }>().tx.note : null;
      const after = await ownOrders(member, r.pair);
      // A stop it triggers trades too, and may fill or self-trade-cancel the member's other orders.
      if (!(await triggeredAny(m, r, stops)))
        expectSelfTradePrevented(before, after, { buySide: this.buySide, price, note });
      await adoptPairBalances(m, r);
      await expectMatches(m, r);
    }
    toString = () => `${this.buySide ? 'buy' : 'sell'}(${this.who}, ${this.permille}‰ at ${this.priceCents}¢)`;
  }

  /**
   * Self-trade prevention, provoked: a member places an order (A) and then the opposite order (B) at the
   * same price. B never trades with A; when B rests (state 1), nothing crossing it is left, so A, if it
   * rested, is Cancelled with its escrow back (the audit and the book check the money).
   */
  class SelfCrossCommand implements fc.AsyncCommand<Model, Real> {
    readonly who: number;
    readonly buySide: boolean;
    readonly permille: number;
    readonly priceCents: number;
    constructor(who: number, buySide: boolean, permille: number, priceCents: number) {
      this.who = who;
      this.buySide = buySide;
      this.permille = permille;
      this.priceCents = priceCents;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const member = r.members[this.who];
      const price = BigInt(this.priceCents) * CENT;
      const place = (buySide: boolean) =>
        call(t.app, member?.token, 'POST', '/api/cex/placeOrder', {
          pair: r.pair,
          buySide,
          initialAmount: text(portion(m, this.who, m.target, this.permille)),
          price: text(price),
        });
      const first = await place(this.buySide);
      expect([200, 400, 409], first.body).toContain(first.statusCode);
      await adoptPairBalances(m, r);
      const [before, stops] = [await ownOrders(member, r.pair), await pendingStops(m, r)];
      const second = await place(!this.buySide);
      expect([200, 400, 409], second.body).toContain(second.statusCode);
      const after = await ownOrders(member, r.pair);
      const note = second.statusCode === 200 ? second.json<{ tx: { note: string } }>().tx.note : null;
      const triggered = await triggeredAny(m, r, stops);
      if (!triggered) expectSelfTradePrevented(before, after, { buySide: !this.buySide, price, note });
      if (first.statusCode === 200 && second.statusCode === 200 && !triggered) {
        const a = after.get(first.json<{ order: Order }>().order._id);
        const b = after.get(second.json<{ order: Order }>().order._id);
        if (b?.state === 1 && before.get(a?._id ?? '')?.state === 1) {
          expect(a?.state, 'the resting own order is cancelled by the crossing one').toBe(2);
          expect(note).toMatch(/cancelled to prevent a self-trade$/);
        }
        stats.checks++;
      }
      await adoptPairBalances(m, r);
      await expectMatches(m, r);
    }
    toString = () =>
      `selfCross(${this.who}, ${this.buySide ? 'buy' : 'sell'} then ${this.buySide ? 'sell' : 'buy'}, ` +
      `${this.permille}‰ at ${this.priceCents}¢)`;
  }

  class CancelOrderCommand implements fc.AsyncCommand<Model, Real> {
    readonly who: number;
    constructor(who: number) {
      this.who = who;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const member = r.members[this.who] as Member;
      const mine = await call(t.app, member.token, 'GET', '/api/cex/getUserOrders');
      const open = mine.json<{ orders: Order[] }>().orders.find((o) => o.state === 1 && o.pair === r.pair);
      if (open) {
        const res = await call(t.app, member.token, 'POST', '/api/cex/cancelOrder', { orderId: open._id });
        expect(res.statusCode, res.body).toBe(200);
      }
      await adoptPairBalances(m, r);
      await expectMatches(m, r);
    }
    toString = () => `cancel(${this.who})`;
  }

  const placeOrder: CommandArb = fc
    .tuple(who, fc.boolean(), permille, fc.integer({ min: 50, max: 150 }))
    .map(([w, b, p, c]) => new PlaceOrderCommand(w, b, p, c));
  const selfCross: CommandArb = fc
    .tuple(who, fc.boolean(), permille, fc.integer({ min: 50, max: 150 }))
    .map(([w, b, p, c]) => new SelfCrossCommand(w, b, p, c));
  const cancel: CommandArb = who.map((w) => new CancelOrderCommand(w));
  return { placeOrder, selfCross, cancel };
}
