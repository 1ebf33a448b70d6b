import { type Currency, formatAmount, mulFraction, toDecimalString, UNIT, type User } from '@starlight/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyBody } from './bank.helpers.ts';
import { amountValue, call, expectLedgerBalanced, type Member, mint, registerMember, useTestApp } from './helpers.ts';

const MEMBERS = 4;
const SD = 1;
const SN = 2;
/** SD's transfer tax, 1%, as a 10^-9-scaled fraction. */
const SD_TAX = 10_000_000n;
/** One hundredth: every amount here has at most 2 decimals (precision 2). */
const CENT = UNIT / 100n;

const t = useTestApp();

/** Balances per member per currency id, in 10^-9 units. */
interface Model {
  balances: Array<Map<number, bigint>>;
  target: number;
}
interface Real {
  members: Member[];
  target: number;
}

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
    expect(actual.some((b) => b.amount?.startsWith('-'))).toBe(false);
  }
  await expectLedgerBalanced(t.app, t.admin);
}

class MintCommand implements fc.AsyncCommand<Model, Real> {
  readonly who: number;
  readonly currency: 'SD' | 'SN' | 'T';
  readonly cents: bigint;
  constructor(who: number, currency: 'SD' | 'SN' | 'T', cents: bigint) {
    this.who = who;
    this.currency = currency;
    this.cents = cents;
  }
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const currencyId = this.currency === 'SD' ? SD : this.currency === 'SN' ? SN : m.target;
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
    const currencyId = this.currency === 'SD' ? SD : SN;
    const amount = portion(m, this.from, currencyId, this.permille);
    const sender = r.members[this.from] as Member;
    const res = await call(t.app, sender.token, 'POST', '/api/bank/p2pTransfer', {
      recipientNickName: r.members[this.to]?.nickname,
      currencyId,
      amount: text(amount),
    });
    if (held(m, this.from, currencyId) < amount) {
      expect(res.statusCode, res.body).toBe(409);
    } else {
      expect(res.statusCode, res.body).toBe(200);
      // SD: 1% to the collector (the admin, outside the model), rounded down to precision 2.
      const tax = currencyId === SD ? mulFraction(amount, SD_TAX, 2) : 0n;
      add(m, this.from, currencyId, -amount);
      add(m, this.to, currencyId, amount - tax);
    }
    await expectMatches(m, r);
  }
  toString = () => `transfer(${this.from} -> ${this.to}, ${this.currency}, ${this.permille}‰)`;
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

const who = fc.integer({ min: 0, max: MEMBERS - 1 });
const permille = fc.integer({ min: 1, max: 1200 });
const mintArb = fc
  .tuple(who, fc.constantFrom('SD' as const, 'SN' as const, 'T' as const), fc.bigInt({ min: 1n, max: 100_000n }))
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
];

describe('the ledger against a model', () => {
  it('keeps every balance equal to the model and the audit balanced', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(commandArbs, { maxCommands: 12 }), async (cmds) => {
        run++;
        const setup = async () => {
          const members: Member[] = [];
          for (let i = 0; i < MEMBERS; i++) members.push(await registerMember(t.app, `p${run}x`));
          // A fresh target currency per run, so only this run's members hold it.
          const res = await call(
            t.app,
            t.admin.token,
            'POST',
            '/api/bank/createCurrency',
            currencyBody({ name: 'Property Coin' }),
          );
          expect(res.statusCode, res.body).toBe(200);
          const target = res.json<{ currency: Currency }>().currency.currencyId;
          const model: Model = { balances: members.map(() => new Map<number, bigint>()), target };
          // Opening balances, so most commands have something to move: 100 SD and 100 SN each,
          // and 1, 2, 3 of the target currency for the first three members (the fourth holds none).
          const opening: Array<[number, number, bigint]> = members.flatMap((_, i) => [
            [i, SD, 100n * UNIT] as [number, number, bigint],
            [i, SN, 100n * UNIT] as [number, number, bigint],
            ...(i < 3 ? [[i, target, BigInt(i + 1) * UNIT] as [number, number, bigint]] : []),
          ]);
          for (const [i, currencyId, units] of opening) {
            await mint(t.app, t.admin, members[i]?.nickname ?? '', currencyId, text(units));
            add(model, i, currencyId, units);
          }
          return { model, real: { members, target } };
        };
        await fc.asyncModelRun(setup, cmds);
      }),
      { numRuns: 25 },
    );
  });
});
