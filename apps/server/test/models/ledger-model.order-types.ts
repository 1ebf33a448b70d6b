/**
 * The ledger model's order-type commands (composed by ledger-model.ts; DESIGN §11.4): market, IOC, FOK,
 * post-only, stop-limit and good-till-date orders on the run's pair, and an expiry racing a fill. Like the
 * limit orders' commands, fills are not re-derived: the model takes the pair's balances from the API and the
 * book must agree with the escrow. Each type adds what it promises: a market, IOC or FOK order never rests;
 * a FOK order fills whole or is refused; a post-only order never trades as it arrives; a refused FOK or
 * post-only order leaves the book and the member's balances as they were; a stop-limit order waits
 * Untriggered; a good-till-date order whose time comes as a crossing order arrives ends Filled or Expired,
 * never open. The model's other good-till-date orders are due in an hour, so the clock never moves money
 * between commands.
 */
import { fromNumeric, type Order } from '@starlight/shared';
import fc from 'fast-check';
import { expect } from 'vitest';
import { call, eventually, type Member } from '../helpers.ts';
import {
  CENT,
  type CommandArb,
  MEMBERS,
  type Model,
  type ModelContext,
  permille,
  portion,
  type Real,
  SN,
  text,
  who,
} from './ledger-model.state.ts';

/** The kinds of order the command draws; the limit GTC order is ledger-model.exchange.ts's. */
const KINDS = ['market', 'IOC', 'FOK', 'postOnly', 'stop', 'gtd'] as const;
type Kind = (typeof KINDS)[number];
/** The kinds that only take from the book. */
const TAKERS: readonly Kind[] = ['market', 'IOC', 'FOK'];

/** A typed order a command places: by member `who`, a share in thousandths of their target currency. */
interface TypedOrder {
  who: number;
  kind: Kind;
  buySide: boolean;
  permille: number;
  priceCents: number;
  /** A stop-limit order's stop price, in cents of SN. */
  stopCents: number;
  /**
   * For a taker kind (market, IOC, FOK): 0, or which member after `who` first rests the opposite limit order
   * at the price, `makerPermille` of their target currency, so the taker finds something to take.
   */
  maker: number;
  makerPermille: number;
}

/** An expiry race: `who`'s good-till-date order, crossed by the member `other` places after them. */
interface RacedOrder {
  who: number;
  other: number;
  buySide: boolean;
  permille: number;
  priceCents: number;
}

/** An hour ahead: a good-till-date order of the model never expires by the clock within a run. */
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
/** How far ahead the expiry race's order is due: past the placement's round trip, within the job's tick. */
const EXPIRY_RACE_MS = 1000;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, Math.max(0, ms)));

/** Refusals any placement may meet: not covered, or worth less than one unit of SN (SPEC §5 precision). */
const COMMON_REFUSALS = ['Insufficient funds', 'The order is worth less than 0.01 SN'];
/** What each kind may be refused with besides (DESIGN §11.4). */
const REFUSALS: Record<Kind, readonly string[]> = {
  market: ['No orders to match'],
  IOC: [],
  FOK: ['Order could not be filled in full'],
  postOnly: ['Order would take liquidity'],
  stop: [],
  gtd: [],
};

/** The order-type commands of a model run, as arbitraries. */
export function orderTypeCommands({ t, stats, expectMatches, adoptPairBalances, pendingStops }: ModelContext) {
  /** The pair's open book as the public sees it (both sides, in priority). */
  async function book(pair: string): Promise<unknown> {
    const res = await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ orders: unknown }>().orders;
  }

  /** A member's balances of the pair's two currencies through the API, as wire text. */
  async function pairBalances(member: Member | undefined, target: number): Promise<Array<string | undefined>> {
    const res = await call(t.app, member?.token, 'GET', '/api/user/me');
    expect(res.statusCode, res.body).toBe(200);
    const balances = res.json<{ user: { balances: Array<{ currencyId: number; amount: string }> } }>().user.balances;
    return [SN, target].map((c) => balances.find((b) => b.currencyId === c)?.amount);
  }

  /** The body of a `kind` order of `quantity` at `price` (a stop-limit's stop `stop`). */
  function orderBody(kind: Kind, pair: string, buySide: boolean, quantity: bigint, price: bigint, stop: bigint) {
    const base = { pair, buySide, initialAmount: text(quantity) };
    switch (kind) {
      case 'market':
        return { ...base, type: 'market' };
      case 'IOC':
      case 'FOK':
        return { ...base, price: text(price), timeInForce: kind };
      case 'postOnly':
        return { ...base, price: text(price), postOnly: true };
      case 'stop':
        return { ...base, price: text(price), type: 'stop_limit', stopPrice: text(stop) };
      case 'gtd':
        return { ...base, price: text(price), expiresAt: inAnHour() };
    }
  }

  /** What the answer's order must show of its kind at once (DESIGN §11.4). */
  function expectKept(kind: Kind, order: Order): void {
    const filled = fromNumeric(order.filledAmount);
    const whole = filled === fromNumeric(order.initialAmount);
    if (kind === 'market' || kind === 'IOC') expect([2, 3], `${kind} never rests`).toContain(order.state);
    if (kind === 'FOK') expect(order.state === 3 && whole, 'FOK fills whole').toBe(true);
    if (kind === 'postOnly') expect(order.state === 1 && filled === 0n, 'post-only rests untraded').toBe(true);
    if (kind === 'stop') expect(order.state === 5 && filled === 0n, 'a stop waits Untriggered').toBe(true);
    if (kind === 'gtd') expect(order.expiresAt).not.toBeNull();
    stats.checks++;
  }

  class OrderTypeCommand implements fc.AsyncCommand<Model, Real> {
    readonly o: TypedOrder;
    constructor(o: TypedOrder) {
      this.o = o;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const member = r.members[this.o.who];
      const quantity = portion(m, this.o.who, m.target, this.o.permille);
      const price = BigInt(this.o.priceCents) * CENT;
      const body = orderBody(this.o.kind, r.pair, this.o.buySide, quantity, price, BigInt(this.o.stopCents) * CENT);
      if (this.o.maker > 0 && TAKERS.includes(this.o.kind)) {
        const maker = (this.o.who + this.o.maker) % MEMBERS;
        const made = await call(t.app, r.members[maker]?.token, 'POST', '/api/cex/placeOrder', {
          pair: r.pair,
          buySide: !this.o.buySide,
          initialAmount: text(portion(m, maker, m.target, this.o.makerPermille)),
          price: text(price),
        });
        expect([200, 400, 409], made.body).toContain(made.statusCode);
      }
      const [bookBefore, balancesBefore] = [await book(r.pair), await pairBalances(member, m.target)];
      const res = await call(t.app, member?.token, 'POST', '/api/cex/placeOrder', body);
      expect([200, 400, 409], res.body).toContain(res.statusCode);
      if (res.statusCode === 200) {
        const order = res.json<{ order: Order }>().order;
        expectKept(this.o.kind, order);
        if (this.o.kind === 'stop') m.stops.push({ id: order._id, who: this.o.who });
      } else {
        const message = res.json<{ message: string }>().message;
        expect([...COMMON_REFUSALS, ...REFUSALS[this.o.kind]], res.body).toContain(message);
        // A refused order changes nothing: the book and the member's money are as they were.
        expect(await book(r.pair), 'a refused order leaves the book').toEqual(bookBefore);
        expect(await pairBalances(member, m.target)).toEqual(balancesBefore);
        stats.checks++;
      }
      await adoptPairBalances(m, r);
      await expectMatches(m, r);
    }
    toString = () =>
      `${this.o.kind}(${this.o.who}, ${this.o.buySide ? 'buy' : 'sell'} ${this.o.permille}‰ at ${this.o.priceCents}¢` +
      `${this.o.kind === 'stop' ? `, stop ${this.o.stopCents}¢` : ''}` +
      `${this.o.maker > 0 && TAKERS.includes(this.o.kind) ? `, after +${this.o.maker} rests ${this.o.makerPermille}‰` : ''})`;
  }

  /**
   * An expiry racing a fill: `who` rests a good-till-date order due in a second; when its time comes,
   * another member's crossing order at the same price arrives while the expiry job (every second, on any
   * replica) reaches it. The order ends Filled, or Cancelled and marked expired with what it had filled;
   * never open.
   */
  class ExpiryRaceCommand implements fc.AsyncCommand<Model, Real> {
    readonly o: RacedOrder;
    constructor(o: RacedOrder) {
      this.o = o;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const [member, other] = [r.members[this.o.who], r.members[(this.o.who + this.o.other) % MEMBERS]];
      const price = text(BigInt(this.o.priceCents) * CENT);
      const initialAmount = text(portion(m, this.o.who, m.target, this.o.permille));
      const due = Date.now() + EXPIRY_RACE_MS;
      const placed = await call(t.app, member?.token, 'POST', '/api/cex/placeOrder', {
        pair: r.pair,
        buySide: this.o.buySide,
        initialAmount,
        price,
        expiresAt: new Date(due).toISOString(),
      });
      expect([200, 400, 409], placed.body).toContain(placed.statusCode);
      const order = placed.statusCode === 200 ? placed.json<{ order: Order }>().order : null;
      if (order?.state === 1) {
        const pending = await pendingStops(m, r);
        const ownStops = m.stops.filter((s) => s.who === this.o.who && pending.has(s.id)).map((s) => s.id);
        await sleep(due - Date.now());
        const crossing = await call(t.app, other?.token, 'POST', '/api/cex/placeOrder', {
          pair: r.pair,
          buySide: !this.o.buySide,
          initialAmount,
          price,
        });
        expect([200, 400, 409], crossing.body).toContain(crossing.statusCode);
        const mine = await eventually(
          () => call(t.app, member?.token, 'GET', '/api/cex/getUserOrders'),
          (res) => res.json<{ orders: Order[] }>().orders.find((o) => o._id === order._id)?.state !== 1,
        );
        const raced = mine.json<{ orders: Order[] }>().orders.find((o) => o._id === order._id);
        // A stop of the member's that the crossing order triggers may cancel it first (self-trade prevention).
        const now = await pendingStops(m, r);
        const ownStopTriggered = ownStops.some((id) => !now.has(id));
        const closed = raced?.state === 3 || (raced?.state === 2 && (raced.expired || ownStopTriggered));
        expect(closed, `raced ${JSON.stringify(raced)}`).toBe(true);
        stats.checks++;
      }
      await adoptPairBalances(m, r);
      await expectMatches(m, r);
    }
    toString = () =>
      `expiryRace(${this.o.who} vs +${this.o.other}, ${this.o.buySide ? 'buy' : 'sell'} ${this.o.permille}‰ at ${this.o.priceCents}¢)`;
  }

  const placeTyped: CommandArb = fc
    .record({
      who,
      kind: fc.constantFrom(...KINDS),
      buySide: fc.boolean(),
      permille,
      priceCents: fc.integer({ min: 50, max: 150 }),
      stopCents: fc.integer({ min: 50, max: 150 }),
      maker: fc.integer({ min: 0, max: MEMBERS - 1 }),
      makerPermille: permille,
    })
    .map((o) => new OrderTypeCommand(o));
  const expiryRace: CommandArb = fc
    .tuple(who, fc.integer({ min: 1, max: MEMBERS - 1 }), fc.boolean(), permille, fc.integer({ min: 50, max: 150 }))
    .map(
      ([w, other, buySide, p, priceCents]) =>
        new ExpiryRaceCommand({ who: w, other, buySide, permille: p, priceCents }),
    );
  return { placeTyped, expiryRace };
}
