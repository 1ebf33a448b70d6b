/**
 * The ledger model (issue 6 §4, §8; issue 8 §4; issue 9 §5; issue 11 §4): fast-check commands that drive
 * the real API (mint, burn, taxed and untaxed transfers, distributions, withdrawals and deposits settled by
 * the admin, orders and cancels on an exchange pair, forge processes started, claimed and cancelled, Credits
 * bought through the sandbox and refunded, synth chips (ASC) bought for Credits and opened into ships) and a
 * simple in-memory model of every member's balances (ASC and Credits included) and items. After each bank
 * command the balances must equal the model's to the unit; after each exchange command (whose fills the
 * model does not re-derive) the model takes the pair's two currencies from the API, and the book must agree
 * with the ledger's escrow and no member may have traded with themselves. Self-trade prevention (cancel
 * oldest, DESIGN §5) is modelled on the member's own orders: a placement never fills any of them, and
 * cancels (state 2) only orders of the other side crossing its price, no more than its note names
 * (`your resting … order(s) … cancelled to prevent a self-trade`), none without that note. After every
 * command no balance is negative and the audit balances, for every currency (ASC's opened chips count as
 * removed). The chip sale is shared with other test files running at
 * once (chips.test.ts buys it down to nothing), so the model knows its remaining supply only as an upper
 * bound (nothing but buying moves it) and accepts a sold-out 409 whenever a race may explain it. Used by
 * ledger.property.test.ts (make test, about 300 steps) and ledger.soak.ts (make soak, 10,000 steps or more).
 */
import { randomUUID } from 'node:crypto';
import {
  type BuySynthChipsResponse,
  CHIP_PRICE_CREDITS,
  type Currency,
  feeOf,
  formatAmount,
  fromNumeric,
  type OpenSynthChipsResponse,
  type Order,
  type Pair,
  SHIPS_PER_CHIP,
  type SynthChipsResponse,
  toDecimalString,
  UNIT,
  type User,
} from '@starlight/shared';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { expect } from 'vitest';
import { currencyBody } from '../bank.helpers.ts';
import { expectBookConsistent } from '../exchange.helpers.ts';
import {
  amountValue,
  call,
  expectLedgerBalanced,
  type Member,
  mint,
  registerMember,
  type TestApp,
} from '../helpers.ts';

const MEMBERS = 4;
const SD = 1;
const SN = 2;
/** SD's transfer tax, 1%, as a 10^-9-scaled fraction. */
const SD_TAX = 10_000_000n;
/** The run's own currency's withdrawal tax, 5% (burned: it has no collector). */
const TARGET_WITHDRAW_TAX = 50_000_000n;
/** One hundredth: every amount here has at most 2 decimals (precision 2). */
const CENT = UNIT / 100n;

/** The run's forge recipe: FORGE_INPUT SN in, FORGE_OUTPUT of the run's currency out, per unit. */
const FORGE_INPUT = 250n * CENT;
const FORGE_OUTPUT = 100n * CENT;

/** The run's Credits package: PACKAGE_CREDITS Credits (currency 3) for 1.00 USD. */
const CREDITS = 3;
const PACKAGE_CREDITS = 100n * UNIT;

/** A synth chip's price in Credits (10^-9 units). */
const CHIP_PRICE = fromNumeric(CHIP_PRICE_CREDITS);

/** A forge process the model knows of: whose, how many units, whether its finish date has passed, whether it has ended. */
interface ModelProcess {
  id: string;
  who: number;
  quantity: bigint;
  finished: boolean;
  ended: boolean;
}

/**
 * Balances per member per currency id, in 10^-9 units; `target` is the run's own currency; the forge
 * processes started in the run.
 */
export interface Model {
  balances: Array<Map<number, bigint>>;
  target: number;
  processes: ModelProcess[];
  /** Completed purchases not refunded yet: whose. */
  purchases: Array<{ id: string; who: number }>;
  /** The synth chips' currency (ASC), read from the sale at setup. */
  chips: number;
  /**
   * The sale's remaining chips as last seen: an upper bound of what it holds now (other test files buy
   * from the same sale at the same time; nothing gives chips back to it).
   */
  saleLeft: number;
  /** Items each member owns: 5 ships per chip opened. */
  items: number[];
}
/** The run's members, its exchange pair (target currency against SN) and its forge recipe. */
export interface Real {
  members: Member[];
  target: number;
  pair: string;
  recipe: string;
  /** The run's Credits package. */
  pkg: string;
}

/** What a run of the model counted: commands run and invariant checks passed. */
export interface ModelStats {
  steps: number;
  checks: number;
  runs: number;
}

/**
 * The model's fast-check property over the app of `t`: `maxCommands` commands per run. Returns the
 * property and the stats it fills as it runs.
 */
export function ledgerModel(t: TestApp, maxCommands: number) {
  const stats: ModelStats = { steps: 0, checks: 0, runs: 0 };
  function held(m: Model, who: number, currencyId: number): bigint {
    return m.balances[who]?.get(currencyId) ?? 0n;
  }
  function add(m: Model, who: number, currencyId: number, delta: bigint): void {
    m.balances[who]?.set(currencyId, held(m, who, currencyId) + delta);
  }
  const text = (units: bigint) => formatAmount(units, 2);

  /**
   * An amount in whole cents: `permille` thousandths of what the member holds (over 1000 overdraws),
   * at least one cent. Taken from the model at run time, so most commands can succeed.
   */
  function portion(m: Model, who: number, currencyId: number, permille: number): bigint {
    const cents = (held(m, who, currencyId) * BigInt(permille)) / 1000n / CENT;
    return (cents > 0n ? cents : 1n) * CENT;
  }

  /** Every member's balances through the API equal the model's; none negative; the audit passes. */
  async function expectMatches(m: Model, r: Real): Promise<void> {
    for (let i = 0; i < MEMBERS; i++) {
      const member = r.members[i] as Member;
      const res = await call(t.app, member.token, 'GET', '/api/user/me');
      expect(res.statusCode).toBe(200);
      const actual = res.json<{ user: User }>().user.balances.map((b) => ({ ...b, amount: amountValue(b.amount) }));
      const expected = [...(m.balances[i] ?? new Map<number, bigint>()).entries()]
        .filter(([, v]) => v !== 0n)
        .sort(([a], [b]) => a - b)
        .map(([currencyId, v]) => ({ currencyId, amount: toDecimalString(v) }));
      expect(actual, `balances of member ${i}`).toEqual(expected);
      stats.checks++;
      expect(actual.some((b) => b.amount?.startsWith('-'))).toBe(false);
    }
    const audit = await expectLedgerBalanced(t.app, t.admin);
    // Conservation is checked per currency: ASC (opened chips removed) and Credits among them.
    const audited = audit.currencies.map((c) => c.currencyId);
    expect(audited).toContain(m.chips);
    expect(audited).toContain(CREDITS);
    stats.checks++;
  }

  /**
   * The sale through `GET /api/inventory/synthChips`: its currency is the model's ASC and its remaining
   * supply has not grown since last seen. Returns (and remembers) the remaining count.
   */
  async function readSale(m: Model): Promise<number> {
    const res = await call(t.app, undefined, 'GET', '/api/inventory/synthChips');
    expect(res.statusCode, res.body).toBe(200);
    const sale = res.json<SynthChipsResponse>();
    expect(sale.currencyId).toBe(m.chips);
    expect(sale.remaining, 'the sale never gains chips').toBeLessThanOrEqual(m.saleLeft);
    expect(sale.remaining).toBeGreaterThanOrEqual(0);
    stats.checks++;
    m.saleLeft = sale.remaining;
    return sale.remaining;
  }

  /**
   * The chips a sold-out refusal says are left, when it is one (`All Sold Out` = 0,
   * `Only N synth chips left`), else null.
   */
  function soldOutLeft(message: string): number | null {
    if (message === 'All Sold Out') return 0;
    const only = /^Only (\d+) synth chips left$/.exec(message);
    return only ? Number(only[1]) : null;
  }

  /**
   * After an exchange command: the model takes the balances of the pair's currencies from the API (its
   * fills are not re-derived here), then the book must agree with the ledger's escrow.
   */
  async function adoptPairBalances(m: Model, r: Real): Promise<void> {
    for (let i = 0; i < MEMBERS; i++) {
      const res = await call(t.app, r.members[i]?.token, 'GET', '/api/user/me');
      expect(res.statusCode).toBe(200);
      const balances = res.json<{ user: User }>().user.balances;
      for (const currencyId of [SN, m.target]) {
        const wire = balances.find((b) => b.currencyId === currencyId)?.amount;
        m.balances[i]?.set(currencyId, wire === undefined ? 0n : fromNumeric(wire));
      }
    }
    await expectBookConsistent(t.built, r.pair, 2);
    stats.checks++;
  }

  class MintCommand implements fc.AsyncCommand<Model, Real> {
    readonly who: number;
    readonly currency: 'SD' | 'SN' | 'T' | 'CR';
    readonly cents: bigint;
    constructor(who: number, currency: 'SD' | 'SN' | 'T' | 'CR', cents: bigint) {
      this.who = who;
      this.currency = currency;
      this.cents = cents;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const currencyId =
        this.currency === 'SD' ? SD : this.currency === 'SN' ? SN : this.currency === 'CR' ? CREDITS : m.target;
      const res = await call(t.app, t.admin.token, 'POST', '/api/bank/mint', {
        recipientNickName: r.members[this.who]?.nickname,
        currencyId,
        amount: text(this.cents * CENT),
        note: 'property mint',
      });
      expect(res.statusCode, res.body).toBe(200);
      add(m, this.who, currencyId, this.cents * CENT);
      await expectMatches(m, r);
    }
    toString = () => `mint(${this.who}, ${this.currency}, ${text(this.cents * CENT)})`;
  }

  class BurnCommand implements fc.AsyncCommand<Model, Real> {
    readonly who: number;
    readonly currency: 'SD' | 'SN';
    readonly permille: number;
    constructor(who: number, currency: 'SD' | 'SN', permille: number) {
      this.who = who;
      this.currency = currency;
      this.permille = permille;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const currencyId = this.currency === 'SD' ? SD : SN;
      const amount = portion(m, this.who, currencyId, this.permille);
      const res = await call(t.app, t.admin.token, 'POST', '/api/bank/burn', {
        recipientNickName: r.members[this.who]?.nickname,
        currencyId,
        amount: text(amount),
        note: 'property burn',
      });
      if (held(m, this.who, currencyId) < amount) {
        expect(res.statusCode, res.body).toBe(409);
      } else {
        expect(res.statusCode, res.body).toBe(200);
        add(m, this.who, currencyId, -amount);
      }
      await expectMatches(m, r);
    }
    toString = () => `burn(${this.who}, ${this.currency}, ${this.permille}‰)`;
  }

  class TransferCommand implements fc.AsyncCommand<Model, Real> {
    readonly from: number;
    readonly to: number;
    readonly currency: 'SD' | 'SN';
    readonly permille: number;
    constructor(from: number, to: number, currency: 'SD' | 'SN', permille: number) {
      this.from = from;
      this.to = to;
      this.currency = currency;
      this.permille = permille;
    }
    check = () => this.from !== this.to;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const currencyId = this.currency === 'SD' ? SD : SN;
      const amount = portion(m, this.from, currencyId, this.permille);
      const sender = r.members[this.from] as Member;
      const res = await call(t.app, sender.token, 'POST', '/api/bank/p2pTransfer', {
        recipientNickName: r.members[this.to]?.nickname,
        currencyId,
        amount: text(amount),
      });
      // SD: 1% to the collector (the admin, outside the model), rounded UP to precision 2 (DESIGN §4).
      const tax = currencyId === SD ? feeOf(amount, SD_TAX, 2) : 0n;
      // Refused without the funds, or when the tax would leave the recipient nothing.
      if (held(m, this.from, currencyId) < amount || amount <= tax) {
        expect(res.statusCode, res.body).toBe(409);
      } else {
        expect(res.statusCode, res.body).toBe(200);
        add(m, this.from, currencyId, -amount);
        add(m, this.to, currencyId, amount - tax);
      }
      await expectMatches(m, r);
    }
    toString = () => `transfer(${this.from} -> ${this.to}, ${this.currency}, ${this.permille}‰)`;
  }

  /** A withdrawal of the run's currency, then the admin approves it, refuses it, or leaves it pending. */
  class WithdrawCommand implements fc.AsyncCommand<Model, Real> {
    readonly who: number;
    readonly permille: number;
    readonly decision: 'approve' | 'refuse' | 'pending';
    constructor(who: number, permille: number, decision: 'approve' | 'refuse' | 'pending') {
      this.who = who;
      this.permille = permille;
      this.decision = decision;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const amount = portion(m, this.who, m.target, this.permille);
      const tax = feeOf(amount, TARGET_WITHDRAW_TAX, 2);
      const member = r.members[this.who] as Member;
      const res = await call(t.app, member.token, 'POST', '/api/bank/withdraw', {
        currencyId: m.target,
        amount: text(amount),
        walletAddress: '0x00000000000000000000000000000000000000aa',
      });
      if (held(m, this.who, m.target) < amount + tax) {
        expect(res.statusCode, res.body).toBe(409);
      } else {
        expect(res.statusCode, res.body).toBe(200);
        add(m, this.who, m.target, -(amount + tax));
        if (this.decision !== 'pending') {
          const id = res.json<{ settlement: { _id: string } }>().settlement._id;
          const approve = this.decision === 'approve';
          const settled = await call(t.app, t.admin.token, 'POST', '/api/bank/settle', {
            settlementId: id,
            approve,
            note: '',
          });
          expect(settled.statusCode, settled.body).toBe(200);
          if (!approve) add(m, this.who, m.target, amount + tax);
        }
      }
      await expectMatches(m, r);
    }
    toString = () => `withdraw(${this.who}, ${this.permille}‰, ${this.decision})`;
  }

  /** A deposit claim of the run's currency, approved (credited) or refused (nothing) by the admin. */
  class DepositCommand implements fc.AsyncCommand<Model, Real> {
    readonly who: number;
    readonly cents: bigint;
    readonly approve: boolean;
    constructor(who: number, cents: bigint, approve: boolean) {
      this.who = who;
      this.cents = cents;
      this.approve = approve;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const member = r.members[this.who] as Member;
      const res = await call(t.app, member.token, 'POST', '/api/bank/deposit', {
        currencyId: m.target,
        amount: text(this.cents * CENT),
        walletAddress: '0x00000000000000000000000000000000000000bb',
        // Unique: a pending or approved deposit's reference is claimed once per currency (migration 0015).
        reference: `property deposit ${randomUUID()}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      await expectMatches(m, r);
      const id = res.json<{ settlement: { _id: string } }>().settlement._id;
      const settled = await call(t.app, t.admin.token, 'POST', '/api/bank/settle', {
        settlementId: id,
        approve: this.approve,
        note: '',
      });
      expect(settled.statusCode, settled.body).toBe(200);
      if (this.approve) add(m, this.who, m.target, this.cents * CENT);
      await expectMatches(m, r);
    }
    toString = () => `deposit(${this.who}, ${text(this.cents * CENT)}, ${this.approve ? 'approve' : 'refuse'})`;
  }

  class DistributeCommand implements fc.AsyncCommand<Model, Real> {
    readonly from: number;
    readonly currency: 'SD' | 'SN';
    readonly permille: number;
    constructor(from: number, currency: 'SD' | 'SN', permille: number) {
      this.from = from;
      this.currency = currency;
      this.permille = permille;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const currencyId = this.currency === 'SD' ? SD : SN;
      const amount = portion(m, this.from, currencyId, this.permille);
      const sender = r.members[this.from] as Member;
      const res = await call(t.app, sender.token, 'POST', '/api/bank/distributeCurrency', {
        currencyId,
        amount: text(amount),
        targetCurrencyId: m.target,
      });
      // Holders of the target currency but the sender, pro rata, whole units, remainder kept.
      const holders = Array.from({ length: MEMBERS }, (_, i) => i).filter(
        (i) => i !== this.from && held(m, i, m.target) > 0n,
      );
      const total = holders.reduce((s, i) => s + held(m, i, m.target), 0n);
      const shares = holders
        .map((i) => {
          const raw = total > 0n ? (amount * held(m, i, m.target)) / total : 0n;
          return [i, raw - (raw % UNIT)] as const;
        })
        .filter(([, share]) => share > 0n);
      const paid = shares.reduce((s, [, share]) => s + share, 0n);
      if (shares.length === 0 || held(m, this.from, currencyId) < paid) {
        expect(res.statusCode, res.body).toBe(409);
      } else {
        expect(res.statusCode, res.body).toBe(200);
        expect(amountValue(res.json<{ distributed: string }>().distributed)).toBe(toDecimalString(paid));
        add(m, this.from, currencyId, -paid);
        for (const [i, share] of shares) add(m, i, currencyId, share);
      }
      await expectMatches(m, r);
    }
    toString = () => `distribute(${this.from}, ${this.currency}, ${this.permille}‰)`;
  }

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
      const before = await ownOrders(member, r.pair);
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
      expectSelfTradePrevented(before, await ownOrders(member, r.pair), { buySide: this.buySide, price, note });
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
      const before = await ownOrders(member, r.pair);
      const second = await place(!this.buySide);
      expect([200, 400, 409], second.body).toContain(second.statusCode);
      const after = await ownOrders(member, r.pair);
      const note = second.statusCode === 200 ? second.json<{ tx: { note: string } }>().tx.note : null;
      expectSelfTradePrevented(before, after, { buySide: !this.buySide, price, note });
      if (first.statusCode === 200 && second.statusCode === 200) {
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

  /** A member starts the run's recipe `quantity` times: SN taken at once, or 409 when not covered. */
  class ForgeStartCommand implements fc.AsyncCommand<Model, Real> {
    readonly who: number;
    readonly quantity: number;
    constructor(who: number, quantity: number) {
      this.who = who;
      this.quantity = quantity;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const res = await call(t.app, r.members[this.who]?.token, 'POST', '/api/forge/startProcess', {
        recipeId: r.recipe,
        quantity: this.quantity,
      });
      const taken = FORGE_INPUT * BigInt(this.quantity);
      if (held(m, this.who, SN) < taken) {
        expect(res.statusCode, res.body).toBe(409);
      } else {
        expect(res.statusCode, res.body).toBe(200);
        add(m, this.who, SN, -taken);
        const id = res.json<{ process: { _id: string } }>().process._id;
        m.processes.push({ id, who: this.who, quantity: BigInt(this.quantity), finished: false, ended: false });
      }
      await expectMatches(m, r);
    }
    toString = () => `forge(${this.who}, x${this.quantity})`;
  }

  /**
   * The owner ends one of the run's processes (the `pick`-th still running): when `finished` its finish
   * date is moved into the past first (for good). Once finished, a claim pays the output and a cancel is
   * refused; before, it is inside the cancel window, so a cancel pays the input back and a claim is refused.
   */
  class ForgeEndCommand implements fc.AsyncCommand<Model, Real> {
    readonly pick: number;
    readonly cancel: boolean;
    readonly finished: boolean;
    constructor(pick: number, cancel: boolean, finished: boolean) {
      this.pick = pick;
      this.cancel = cancel;
      this.finished = finished;
    }
    check = (m: Readonly<Model>) => m.processes.some((p) => !p.ended);
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const running = m.processes.filter((p) => !p.ended);
      const p = running[this.pick % running.length] as ModelProcess;
      if (this.finished && !p.finished) {
        await t.built.database.db.execute(
          sql`UPDATE forge_processes SET finish_date = now() - interval '1 second' WHERE id = ${p.id}`,
        );
        p.finished = true;
      }
      const res = await call(t.app, r.members[p.who]?.token, 'POST', '/api/forge/endProcess', {
        processId: p.id,
        cancel: this.cancel,
      });
      // A claim needs the finish date passed; a cancel needs it ahead (and the process under 10 minutes old).
      if (this.cancel === p.finished) {
        expect(res.statusCode, res.body).toBe(409);
      } else {
        expect(res.statusCode, res.body).toBe(200);
        p.ended = true;
        if (this.cancel) add(m, p.who, SN, FORGE_INPUT * p.quantity);
        else add(m, p.who, m.target, FORGE_OUTPUT * p.quantity);
      }
      await expectMatches(m, r);
    }
    toString = () =>
      `${this.cancel ? 'cancelForge' : 'claimForge'}(#${this.pick}, ${this.finished ? 'finished' : 'running'})`;
  }

  /**
   * A member buys the run's package through the sandbox and pays (Credits issued, category 12) or fails
   * (nothing); pressing Pay again credits nothing more.
   */
  class CheckoutCommand implements fc.AsyncCommand<Model, Real> {
    readonly who: number;
    readonly pay: boolean;
    constructor(who: number, pay: boolean) {
      this.who = who;
      this.pay = pay;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const member = r.members[this.who] as Member;
      const bought = await call(t.app, member.token, 'POST', '/api/checkout/buyPackage', {
        packageId: r.pkg,
        providerId: 2,
      });
      expect(bought.statusCode, bought.body).toBe(200);
      const id = bought.json<{ checkout: { _id: string } }>().checkout._id;
      const action = this.pay ? 'pay' : 'fail';
      for (const expected of this.pay ? ['completed', 'ignored'] : ['cancelled']) {
        const res = await call(t.app, member.token, 'POST', `/api/checkout/sandbox/${id}/${action}`, {});
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().outcome).toBe(expected);
      }
      if (this.pay) {
        add(m, this.who, CREDITS, PACKAGE_CREDITS);
        m.purchases.push({ id, who: this.who });
      }
      await expectMatches(m, r);
    }
    toString = () => `checkout(${this.who}, ${this.pay ? 'pay' : 'fail'})`;
  }

  /** The provider refunds one of the run's purchases: the Credits the member still holds are taken back. */
  class RefundCommand implements fc.AsyncCommand<Model, Real> {
    readonly pick: number;
    constructor(pick: number) {
      this.pick = pick;
    }
    check = (m: Readonly<Model>) => m.purchases.length > 0;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const [p] = m.purchases.splice(this.pick % m.purchases.length, 1);
      if (!p) return;
      const res = await call(t.app, r.members[p.who]?.token, 'POST', `/api/checkout/sandbox/${p.id}/refund`, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().outcome).toBe('resolved');
      const held = m.balances[p.who]?.get(CREDITS) ?? 0n;
      add(m, p.who, CREDITS, -(held < PACKAGE_CREDITS ? held : PACKAGE_CREDITS));
      await expectMatches(m, r);
    }
    toString = () => `refund(#${this.pick})`;
  }

  /**
   * A member buys `count` synth chips for 500 Credits each. The sale is read first: when it holds fewer
   * the buy must be refused as sold out (its supply only shrinks); otherwise it succeeds exactly when the
   * modelled Credits cover it, unless another test file bought the sale short in between (a sold-out 409
   * naming fewer than `count` left), and then nothing changes for the member.
   */
  class BuyChipsCommand implements fc.AsyncCommand<Model, Real> {
    readonly who: number;
    readonly count: number;
    constructor(who: number, count: number) {
      this.who = who;
      this.count = count;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const left = await readSale(m);
      const cost = CHIP_PRICE * BigInt(this.count);
      const covered = held(m, this.who, CREDITS) >= cost;
      const res = await call(t.app, r.members[this.who]?.token, 'POST', '/api/inventory/buySynthChips', {
        amount: this.count,
      });
      expect([200, 409], res.body).toContain(res.statusCode);
      if (res.statusCode === 200) {
        expect(left >= this.count && covered, `bought ${this.count} with ${left} left: ${res.body}`).toBe(true);
        const bought = res.json<BuySynthChipsResponse>();
        expect(bought.message).toBe(`Bought ${this.count} synth chip(s)`);
        expect(bought.remaining).toBeGreaterThanOrEqual(0);
        expect(bought.remaining).toBeLessThanOrEqual(left - this.count);
        m.saleLeft = bought.remaining;
        add(m, this.who, CREDITS, -cost);
        add(m, this.who, m.chips, BigInt(this.count) * UNIT);
      } else {
        const message = res.json<{ message: string }>().message;
        const short = soldOutLeft(message);
        if (short !== null) {
          // Sold out: fewer than asked left, and no more than were seen.
          expect(short, message).toBeLessThan(this.count);
          expect(short, message).toBeLessThanOrEqual(left);
          m.saleLeft = short;
        } else {
          expect(message).toBe('Insufficient funds');
          expect(covered, 'refused for funds while covered').toBe(false);
        }
        // The sale's supply only shrinks, so one seen short stays short.
        if (left < this.count) expect(short, message).not.toBeNull();
      }
      await expectMatches(m, r);
    }
    toString = () => `buyChips(${this.who}, x${this.count})`;
  }

  /**
   * A member opens `count` synth chips: succeeds exactly when they hold that many (chips burned, 5 ships
   * each); otherwise 409 `Not enough synth chips` and nothing changes. With `holder`, a member holding
   * chips opens them (when there is one), so openings are not mostly refusals. Then the member's item
   * count must equal the model's.
   */
  class OpenChipsCommand implements fc.AsyncCommand<Model, Real> {
    readonly who: number;
    readonly count: number;
    readonly holder: boolean;
    constructor(who: number, count: number, holder: boolean) {
      this.who = who;
      this.count = count;
      this.holder = holder;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const holders = Array.from({ length: MEMBERS }, (_, i) => i).filter((i) => held(m, i, m.chips) > 0n);
      const w = this.holder && holders.length > 0 ? (holders[this.who % holders.length] as number) : this.who;
      const member = r.members[w] as Member;
      const res = await call(t.app, member.token, 'POST', '/api/inventory/openSynthChips', { amount: this.count });
      const chips = BigInt(this.count) * UNIT;
      if (held(m, w, m.chips) >= chips) {
        expect(res.statusCode, res.body).toBe(200);
        const opened = res.json<OpenSynthChipsResponse>();
        const ships = this.count * SHIPS_PER_CHIP;
        expect(opened.message).toBe(`Opened ${this.count} synth chip(s): ${ships} ships`);
        expect(opened.createdItems).toHaveLength(ships);
        for (const item of opened.createdItems) expect(item.owner.nickname).toBe(member.nickname);
        add(m, w, m.chips, -chips);
        m.items[w] = (m.items[w] ?? 0) + ships;
      } else {
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json().message).toBe('Not enough synth chips');
      }
      const mine = await call(t.app, member.token, 'POST', '/api/inventory/getUserItems', {
        paging: { limit: 5, page: 1 },
      });
      expect(mine.statusCode, mine.body).toBe(200);
      expect(mine.json<{ total: number }>().total, `items of member ${w}`).toBe(m.items[w] ?? 0);
      stats.checks++;
      await expectMatches(m, r);
    }
    toString = () => `openChips(${this.holder ? 'a holder' : this.who}, x${this.count})`;
  }

  const who = fc.integer({ min: 0, max: MEMBERS - 1 });
  const permille = fc.integer({ min: 1, max: 1200 });
  const mintArb = fc
    .tuple(
      who,
      fc.constantFrom('SD' as const, 'SN' as const, 'T' as const, 'CR' as const),
      fc.bigInt({ min: 1n, max: 100_000n }),
    )
    .map(([w, c, n]) => new MintCommand(w, c, n));
  const commandArbs = [
    // Mints twice as often: the other commands need something to move.
    mintArb,
    mintArb,
    fc.tuple(who, fc.constantFrom('SD' as const, 'SN' as const), permille).map(([w, c, p]) => new BurnCommand(w, c, p)),
    fc.tuple(who, who, permille).map(([f, t, p]) => new TransferCommand(f, t, 'SD', p)),
    fc.tuple(who, who, permille).map(([f, t, p]) => new TransferCommand(f, t, 'SN', p)),
    fc
      .tuple(who, fc.constantFrom('SD' as const, 'SN' as const), permille)
      .map(([f, c, p]) => new DistributeCommand(f, c, p)),
    fc
      .tuple(who, fc.boolean(), permille, fc.integer({ min: 50, max: 150 }))
      .map(([w, b, p, c]) => new PlaceOrderCommand(w, b, p, c)),
    fc
      .tuple(who, fc.boolean(), permille, fc.integer({ min: 50, max: 150 }))
      .map(([w, b, p, c]) => new SelfCrossCommand(w, b, p, c)),
    who.map((w) => new CancelOrderCommand(w)),
    fc
      .tuple(who, permille, fc.constantFrom('approve' as const, 'refuse' as const, 'pending' as const))
      .map(([w, p, d]) => new WithdrawCommand(w, p, d)),
    fc.tuple(who, fc.bigInt({ min: 1n, max: 10_000n }), fc.boolean()).map(([w, c, a]) => new DepositCommand(w, c, a)),
    fc.tuple(who, fc.integer({ min: 1, max: 30 })).map(([w, q]) => new ForgeStartCommand(w, q)),
    fc
      .tuple(fc.nat({ max: 20 }), fc.boolean(), fc.boolean())
      .map(([p, cancel, finished]) => new ForgeEndCommand(p, cancel, finished)),
    fc.tuple(who, fc.boolean()).map(([w, pay]) => new CheckoutCommand(w, pay)),
    fc.nat({ max: 20 }).map((p) => new RefundCommand(p)),
    // Chip buys and openings twice each, so that openings often find chips bought before them.
    fc.tuple(who, fc.integer({ min: 1, max: 3 })).map(([w, n]) => new BuyChipsCommand(w, n)),
    fc.tuple(who, fc.integer({ min: 1, max: 3 })).map(([w, n]) => new BuyChipsCommand(w, n)),
    fc.tuple(who, fc.integer({ min: 1, max: 2 }), fc.boolean()).map(([w, n, h]) => new OpenChipsCommand(w, n, h)),
    fc.tuple(who, fc.integer({ min: 1, max: 2 }), fc.boolean()).map(([w, n, h]) => new OpenChipsCommand(w, n, h)),
  ];

  let run = 0;
  const property = fc.asyncProperty(fc.commands(commandArbs, { maxCommands }), async (cmds) => {
    run++;
    stats.runs++;
    const setup = async () => {
      const members: Member[] = [];
      for (let i = 0; i < MEMBERS; i++) members.push(await registerMember(t.app, `p${run}x`));
      // A fresh target currency per run, so only this run's members hold it, traded against SN.
      const res = await call(
        t.app,
        t.admin.token,
        'POST',
        '/api/bank/createCurrency',
        // Withdrawable and depositable, with a 5% withdrawal tax that is burned (no collector).
        currencyBody({ name: 'Property Coin', canWithdraw: true, canDeposit: true, withdrawTax: '0.05' }),
      );
      expect(res.statusCode, res.body).toBe(200);
      const target = res.json<{ currency: Currency }>().currency.currencyId;
      const pairRes = await call(t.app, t.admin.token, 'POST', '/api/cex/createPair', {
        buyCurrency: target,
        sellCurrency: SN,
        canBuy: true,
        canSell: true,
        fee: '0.01',
        feeCollector: t.admin.nickname,
      });
      expect(pairRes.statusCode, pairRes.body).toBe(200);
      const pair = pairRes.json<{ pair: Pair }>().pair._id;
      // A recipe turning 2.50 SN into 1.00 of the run's currency (an hour), so forging moves both.
      const recipeRes = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/create', {
        name: 'Property forge',
        description: 'Turns SN into the run currency',
        timeRequired: 3600,
        input: { currencyId: SN, amount: text(FORGE_INPUT) },
        output: { currencyId: target, amount: text(FORGE_OUTPUT) },
      });
      expect(recipeRes.statusCode, recipeRes.body).toBe(200);
      const recipe = recipeRes.json<{ recipe: { _id: string } }>().recipe._id;
      // A Credits package bought through the sandbox (card provider without settings).
      const pkgRes = await call(t.app, t.admin.token, 'POST', '/api/checkout/packages/create', {
        name: 'Property Credits',
        description: 'Credits for the ledger model',
        cost: '1.00',
        amount: text(PACKAGE_CREDITS),
      });
      expect(pkgRes.statusCode, pkgRes.body).toBe(200);
      const pkg = pkgRes.json<{ package: { _id: string } }>().package._id;
      const published = await call(t.app, t.admin.token, 'POST', '/api/checkout/packages/publish', { objectId: pkg });
      expect(published.statusCode, published.body).toBe(200);
      // The synth chip sale (seeded once, shared with every test file).
      const saleRes = await call(t.app, undefined, 'GET', '/api/inventory/synthChips');
      expect(saleRes.statusCode, saleRes.body).toBe(200);
      const sale = saleRes.json<SynthChipsResponse>();
      const model: Model = {
        balances: members.map(() => new Map<number, bigint>()),
        target,
        processes: [],
        purchases: [],
        chips: sale.currencyId,
        saleLeft: sale.remaining,
        items: members.map(() => 0),
      };
      // Opening balances, so most commands have something to move: 100 SD and 100 SN each,
      // 1, 2, 3 of the target currency and 500, 1000, 1500 Credits (1 to 3 chips) for the first three
      // members (the fourth holds none).
      const opening: Array<[number, number, bigint]> = members.flatMap((_, i) => [
        [i, SD, 100n * UNIT] as [number, number, bigint],
        [i, SN, 100n * UNIT] as [number, number, bigint],
        ...(i < 3
          ? [
              [i, target, BigInt(i + 1) * UNIT] as [number, number, bigint],
              [i, CREDITS, BigInt(i + 1) * CHIP_PRICE] as [number, number, bigint],
            ]
          : []),
      ]);
      for (const [i, currencyId, units] of opening) {
        await mint(t.app, t.admin, members[i]?.nickname ?? '', currencyId, text(units));
        add(model, i, currencyId, units);
      }
      // The third member buys a chip up front (1000 Credits left), so openings have chips to open from
      // the first command; a sale already sold out by another test file refuses it and nothing changes.
      const first = await call(t.app, members[2]?.token, 'POST', '/api/inventory/buySynthChips', { amount: 1 });
      if (first.statusCode === 200) {
        add(model, 2, CREDITS, -CHIP_PRICE);
        add(model, 2, model.chips, UNIT);
        model.saleLeft = first.json<BuySynthChipsResponse>().remaining;
      } else {
        expect(first.statusCode, first.body).toBe(409);
        expect(soldOutLeft(first.json<{ message: string }>().message), first.body).toBe(0);
        model.saleLeft = 0;
      }
      return { model, real: { members, target, pair, recipe, pkg } };
    };
    await fc.asyncModelRun(setup, cmds);
  });
  return { property, stats };
}
