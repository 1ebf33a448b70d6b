/**
 * The ledger model's Credits and synth chip commands (composed by ledger-model.ts): the run's Credits
 * package bought through the sandbox and paid or failed, purchases refunded by the provider, synth chips
 * (ASC) bought for Credits from the sale shared with other test files, and chips opened into ships, the
 * member's items counted.
 */
import { type BuySynthChipsResponse, type OpenSynthChipsResponse, SHIPS_PER_CHIP, UNIT } from '@starlight/shared';
import fc from 'fast-check';
import { expect } from 'vitest';
import { call, type Member } from '../helpers.ts';
import {
  add,
  CHIP_PRICE,
  type CommandArb,
  CREDITS,
  held,
  MEMBERS,
  type Model,
  type ModelContext,
  PACKAGE_CREDITS,
  type Real,
  soldOutLeft,
  who,
} from './ledger-model.state.ts';

/** The Credits and chip commands of a model run, as arbitraries. */
export function creditsCommands({ t, stats, expectMatches, readSale }: ModelContext) {
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
      // The ships opened, and the run's market items the member holds now (ledger-model.market.ts).
      const traded = m.market.items.filter((x) => x.owner === w).length;
      expect(mine.json<{ total: number }>().total, `items of member ${w}`).toBe((m.items[w] ?? 0) + traded);
      stats.checks++;
      await expectMatches(m, r);
    }
    toString = () => `openChips(${this.holder ? 'a holder' : this.who}, x${this.count})`;
  }

  const checkout: CommandArb = fc.tuple(who, fc.boolean()).map(([w, pay]) => new CheckoutCommand(w, pay));
  const refund: CommandArb = fc.nat({ max: 20 }).map((p) => new RefundCommand(p));
  const buyChips: CommandArb = fc.tuple(who, fc.integer({ min: 1, max: 3 })).map(([w, n]) => new BuyChipsCommand(w, n));
  const openChips: CommandArb = fc
    .tuple(who, fc.integer({ min: 1, max: 2 }), fc.boolean())
    .map(([w, n, h]) => new OpenChipsCommand(w, n, h));
  return { checkout, refund, buyChips, openChips };
}
