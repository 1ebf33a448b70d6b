/**
 * The ledger model's bank commands (composed by ledger-model.ts): mint, burn, taxed and untaxed transfers,
 * distributions, withdrawals approved, refused or left pending, and deposits approved or refused by the
 * admin; each predicts the balances exactly and ends with the model's checks.
 */
import { randomUUID } from 'node:crypto';
import { feeOf, fromNumeric, toDecimalString, UNIT, type User } from '@starlight/shared';
import fc from 'fast-check';
import { expect } from 'vitest';
import { amountValue, call, type Member } from '../helpers.ts';
import {
  add,
  CENT,
  type CommandArb,
  CREDITS,
  held,
  MEMBERS,
  type Model,
  type ModelContext,
  permille,
  portion,
  type Real,
  SD,
  SD_TAX,
  SN,
  TARGET_WITHDRAW_TAX,
  text,
  who,
} from './ledger-model.state.ts';

/** The bank commands of a model run, as arbitraries. */
export function bankCommands({ t, stats, expectMatches }: ModelContext) {
  /** What the admin (outside the model) holds of a currency, through the API; 10^-9 units. */
  async function adminHolding(currencyId: number): Promise<bigint> {
    const res = await call(t.app, t.admin.token, 'GET', '/api/user/me');
    expect(res.statusCode, res.body).toBe(200);
    const wire = res.json<{ user: User }>().user.balances.find((b) => b.currencyId === currencyId)?.amount;
    return wire === undefined ? 0n : fromNumeric(wire);
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
      // Holders of the target currency but the sender, pro rata, whole units, remainder kept. The admin,
      // outside the model, holds some too: the exchange fees buyers pay in it (the pair's collector).
      const holders = Array.from({ length: MEMBERS }, (_, i) => i).filter(
        (i) => i !== this.from && held(m, i, m.target) > 0n,
      );
      const collected = await adminHolding(m.target);
      const total = holders.reduce((s, i) => s + held(m, i, m.target), collected);
      const shareOf = (holding: bigint) => {
        const raw = total > 0n ? (amount * holding) / total : 0n;
        return raw - (raw % UNIT);
      };
      const shares = holders.map((i) => [i, shareOf(held(m, i, m.target))] as const).filter(([, s]) => s > 0n);
      const collectorShare = shareOf(collected);
      const paid = shares.reduce((s, [, share]) => s + share, collectorShare);
      if (paid === 0n || held(m, this.from, currencyId) < paid) {
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

  const mint: CommandArb = fc
    .tuple(
      who,
      fc.constantFrom('SD' as const, 'SN' as const, 'T' as const, 'CR' as const),
      fc.bigInt({ min: 1n, max: 100_000n }),
    )
    .map(([w, c, n]) => new MintCommand(w, c, n));
  const burn: CommandArb = fc
    .tuple(who, fc.constantFrom('SD' as const, 'SN' as const), permille)
    .map(([w, c, p]) => new BurnCommand(w, c, p));
  const transferSD: CommandArb = fc.tuple(who, who, permille).map(([f, t, p]) => new TransferCommand(f, t, 'SD', p));
  const transferSN: CommandArb = fc.tuple(who, who, permille).map(([f, t, p]) => new TransferCommand(f, t, 'SN', p));
  const distribute: CommandArb = fc
    .tuple(who, fc.constantFrom('SD' as const, 'SN' as const), permille)
    .map(([f, c, p]) => new DistributeCommand(f, c, p));
  const withdraw: CommandArb = fc
    .tuple(who, permille, fc.constantFrom('approve' as const, 'refuse' as const, 'pending' as const))
    .map(([w, p, d]) => new WithdrawCommand(w, p, d));
  const deposit: CommandArb = fc
    .tuple(who, fc.bigInt({ min: 1n, max: 10_000n }), fc.boolean())
    .map(([w, c, a]) => new DepositCommand(w, c, a));
  return { mint, burn, transferSD, transferSN, distribute, withdraw, deposit };
}
