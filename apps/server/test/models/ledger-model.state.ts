/**
 * The ledger model's state and invariants (composed by ledger-model.ts, whose comment tells the whole
 * model): the constants of a run, the in-memory model of every member's balances and items beside the real
 * members, pair, recipe and package, the arithmetic the commands share, and the checks every command ends
 * with: balances equal to the model's, none negative, the audit balanced, the chip sale never growing, and
 * after an exchange command the book agreeing with the ledger's escrow.
 */
import {
  CHIP_PRICE_CREDITS,
  formatAmount,
  fromNumeric,
  type Order,
  type SynthChipsResponse,
  toDecimalString,
  UNIT,
  type User,
} from '@starlight/shared';
import fc from 'fast-check';
import { expect } from 'vitest';
import { expectBookConsistent } from '../exchange.helpers.ts';
import { amountValue, call, expectLedgerBalanced, type Member, type TestApp } from '../helpers.ts';

export const MEMBERS = 4;
export const SD = 1;
export const SN = 2;
/** SD's transfer tax, 1%, as a 10^-9-scaled fraction. */
export const SD_TAX = 10_000_000n;
/** The run's own currency's withdrawal tax, 5% (burned: it has no collector). */
export const TARGET_WITHDRAW_TAX = 50_000_000n;
/** One hundredth: every amount here has at most 2 decimals (precision 2). */
export const CENT = UNIT / 100n;

/** The run's forge recipe: FORGE_INPUT SN in, FORGE_OUTPUT of the run's currency out, per unit. */
export const FORGE_INPUT = 250n * CENT;
export const FORGE_OUTPUT = 100n * CENT;

/** The run's Credits package: PACKAGE_CREDITS Credits (currency 3) for 1.00 USD. */
export const CREDITS = 3;
export const PACKAGE_CREDITS = 100n * UNIT;

/** A synth chip's price in Credits (10^-9 units). */
export const CHIP_PRICE = fromNumeric(CHIP_PRICE_CREDITS);

/** A forge process the model knows of: whose, how many units, whether its finish date has passed, whether it has ended. */
export interface ModelProcess {
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
  /** The run's marketplace (ledger-model.market.ts): its collection's items and their listings. */
  market: {
    items: Array<{ id: string; owner: number }>;
    listings: Array<{ id: string; item: string; seller: number; price: bigint; open: boolean }>;
    /** Purchase attempts so far: each buyer's Idempotency-Key names its attempt. */
    attempts: number;
  };
  /** Stop-limit orders placed in the run and not yet seen triggered: their ids and owners. */
  stops: Array<{ id: string; who: number }>;
}

/** The run's members, its exchange pair (target currency against SN) and its forge recipe. */
export interface Real {
  members: Member[];
  target: number;
  pair: string;
  recipe: string;
  /** The run's Credits package. */
  pkg: string;
  /** The model's item collection (the admin's, 10% royalty), whose items the run's members trade. */
  collection: string;
}

/** What a run of the model counted: commands run and invariant checks passed. */
export interface ModelStats {
  steps: number;
  checks: number;
  runs: number;
}

/** A command of the model, and what makes one at random. */
export type ModelCommand = fc.AsyncCommand<Model, Real>;
export type CommandArb = fc.Arbitrary<ModelCommand>;

/** Which member a command is about, and what share (in thousandths) of a balance it moves. */
export const who = fc.integer({ min: 0, max: MEMBERS - 1 });
export const permille = fc.integer({ min: 1, max: 1200 });

/** What member `who` holds of a currency in the model (10^-9 units). */
export function held(m: Model, who: number, currencyId: number): bigint {
  return m.balances[who]?.get(currencyId) ?? 0n;
}
/** Moves member `who`'s modelled balance of a currency by `delta`. */
export function add(m: Model, who: number, currencyId: number, delta: bigint): void {
  m.balances[who]?.set(currencyId, held(m, who, currencyId) + delta);
}
/** Units as a wire amount at precision 2. */
export const text = (units: bigint) => formatAmount(units, 2);

/**
 * An amount in whole cents: `permille` thousandths of what the member holds (over 1000 overdraws),
 * at least one cent. Taken from the model at run time, so most commands can succeed.
 */
export function portion(m: Model, who: number, currencyId: number, permille: number): bigint {
  const cents = (held(m, who, currencyId) * BigInt(permille)) / 1000n / CENT;
  return (cents > 0n ? cents : 1n) * CENT;
}

/**
 * The chips a sold-out refusal says are left, when it is one (`All Sold Out` = 0,
 * `Only N synth chips left`), else null.
 */
export function soldOutLeft(message: string): number | null {
  if (message === 'All Sold Out') return 0;
  const only = /^Only (\d+) synth chips left$/.exec(message);
  return only ? Number(only[1]) : null;
}

/** The checks the commands of a run end with, on the app of `t`, counting into `stats`. */
export interface ModelContext {
  t: TestApp;
  stats: ModelStats;
  /** Every member's balances through the API equal the model's; none negative; the audit passes. */
  expectMatches(m: Model, r: Real): Promise<void>;
  /** The sale's remaining chips through the API, remembered in the model. */
  readSale(m: Model): Promise<number>;
  /** The model takes the pair's two currencies from the API; the book agrees with the escrow. */
  adoptPairBalances(m: Model, r: Real): Promise<void>;
  /**
   * The model's stop-limit orders still Untriggered (or not listed) through the API, by id; those seen
   * triggered leave `m.stops`. A placement whose trades trigger a stop places another order within it.
   */
  pendingStops(m: Model, r: Real): Promise<Set<string>>;
}

/** The checks of a model run on the app of `t`, with fresh stats. */
export function modelContext(t: TestApp): ModelContext {
  const stats: ModelStats = { steps: 0, checks: 0, runs: 0 };

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

  async function pendingStops(m: Model, r: Real): Promise<Set<string>> {
    const pending = new Set<string>();
    for (const owner of new Set(m.stops.map((s) => s.who))) {
      const res = await call(t.app, r.members[owner]?.token, 'GET', '/api/cex/getUserOrders');
      expect(res.statusCode, res.body).toBe(200);
      const states = new Map(res.json<{ orders: Order[] }>().orders.map((o) => [o._id, o.state]));
      for (const s of m.stops) if (s.who === owner && (states.get(s.id) ?? 5) === 5) pending.add(s.id);
    }
    m.stops = m.stops.filter((s) => pending.has(s.id));
    return pending;
  }

  return { t, stats, expectMatches, readSale, adoptPairBalances, pendingStops };
}
