/**
 * Alpha synth chips (DESIGN §7): bought for 500 Credits each from a fixed supply that is
 * never oversold, even by concurrent buyers; opened into 5 Alpha Ships each, once per chip even under
 * concurrent openings (6 openings of one chip with 3 chips held: 3 succeed, 15 ships); the drop table
 * is published; the ledger stays conserved.
 */
import type {
  BuySynthChipsResponse,
  DropTableResponse,
  OpenSynthChipsResponse,
  SynthChipsResponse,
} from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { balanceOf, call, expectLedgerBalanced, type Member, mint, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const CREDITS = 3;

async function sale(): Promise<SynthChipsResponse> {
  const res = await call(t.app, undefined, 'GET', '/api/inventory/synthChips');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SynthChipsResponse>();
}

function buy(m: Member, amount: unknown) {
  return call(t.app, m.token, 'POST', '/api/inventory/buySynthChips', { amount });
}

function open(m: Member, amount: unknown) {
  return call(t.app, m.token, 'POST', '/api/inventory/openSynthChips', { amount });
}

async function funded(credits: string): Promise<Member> {
  const m = await registerMember(t.app, 'chips');
  await mint(t.app, t.admin, m.nickname, CREDITS, credits);
  return m;
}

describe('synth chips', () => {
  it('are sold for 500 Credits each: the Credits go to the sale, the chips to the member', async () => {
    const before = await sale();
    expect(before).toMatchObject({ price: '500.00' });
    const m = await funded('1200');
    const res = await buy(m, 2);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BuySynthChipsResponse>()).toMatchObject({ message: 'Bought 2 synth chip(s)' });
    expect(await balanceOf(t.app, m, CREDITS)).toBe('200');
    expect(await balanceOf(t.app, m, before.currencyId)).toBe('2');
    const poor = await buy(m, 1);
    expect(poor.statusCode).toBe(409);
    expect(poor.json().message).toBe('Insufficient funds');
    expect(await balanceOf(t.app, m, before.currencyId)).toBe('2');
  });

  it.each([
    [0, '"amount" contains an invalid value'],
    [101, '"amount" contains an invalid value'],
    [1.5, '"amount" contains an invalid value'],
    [undefined, '"amount" is required'],
  ])('refuses to buy or open %s with %s', async (amount, message) => {
    const m = await funded('1000');
    for (const send of [buy, open]) {
      const res = await send(m, amount);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await call(t.app, undefined, 'POST', '/api/inventory/buySynthChips', { amount: 1 })).statusCode).toBe(401);
  });

  it('opening burns the chips and creates 5 Alpha Ships each, drawn from the published table', async () => {
    const { currencyId } = await sale();
    const m = await funded('1000');
    expect((await buy(m, 2)).statusCode).toBe(200);
    const res = await open(m, 2);
    expect(res.statusCode, res.body).toBe(200);
    const { createdItems, message } = res.json<OpenSynthChipsResponse>();
    expect(message).toBe('Opened 2 synth chip(s): 10 ships');
    expect(createdItems).toHaveLength(10);
    const table = (await call(t.app, undefined, 'GET', '/api/inventory/dropTable')).json<DropTableResponse>();
    const names = table.table.flatMap((r) => r.ships.map((s) => `Alpha ${s}`));
    for (const item of createdItems) {
      expect(names).toContain(item.name);
      // Each ship has the picture of its class, e.g. /ships/scout.svg for Alpha Scout.
      expect(item.imgUrl).toBe(`/ships/${item.name.replace('Alpha ', '').toLowerCase()}.svg`);
      expect(item.metadata).toMatchObject({ class: item.name.replace('Alpha ', '') });
      expect(item.owner.nickname).toBe(m.nickname);
      expect(item.hiddendata).toBeUndefined();
      // "An uncommon", "An epic", "A rare": the article goes with the rarity's first sound.
      const rarity = String(item.metadata.rarity).toLowerCase();
      expect(item.description).toBe(
        `${/^[aeiou]/.test(rarity) ? 'An' : 'A'} ${rarity} ${item.name.replace('Alpha ', '').toLowerCase()} from an Alpha synth chip`,
      );
      expect(item.description).not.toMatch(/^A [aeiou]/i);
    }
    expect(table.table.reduce((s, r) => s + Number(r.odds), 0)).toBeCloseTo(1, 10);
    // The answer is the ships as stored: the member's item list shows the same ten, newest first.
    const listed = await call(t.app, m.token, 'POST', '/api/inventory/getUserItems', {
      paging: { page: 1, limit: 10 },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<{ data: unknown[] }>().data).toEqual(createdItems);
    expect(await balanceOf(t.app, m, currencyId)).toBe('0');
    const none = await open(m, 1);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('Not enough synth chips');
  });

  it('6 concurrent openings of one chip with 3 chips held: 3 succeed, 15 ships', async () => {
    const { currencyId } = await sale();
    const m = await funded('1500');
    expect((await buy(m, 3)).statusCode).toBe(200);
    const results = await Promise.all(Array.from({ length: 6 }, () => open(m, 1)));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 409).map((r) => r.json().message)).toEqual(
      Array(3).fill('Not enough synth chips'),
    );
    expect(ok.flatMap((r) => r.json<OpenSynthChipsResponse>().createdItems)).toHaveLength(15);
    expect(await balanceOf(t.app, m, currencyId)).toBe('0');
    const mine = await call(t.app, m.token, 'POST', '/api/inventory/getUserItems', { paging: { limit: 50, page: 1 } });
    expect(mine.json().total).toBe(15);
  });

  it('concurrent openings by several members: each gets their own 5 ships; one without a chip is refused', async () => {
    const openers = await Promise.all(Array.from({ length: 4 }, () => funded('500')));
    for (const m of openers) expect((await buy(m, 1)).statusCode).toBe(200);
    const none = await registerMember(t.app, 'chips');
    const results = await Promise.all([...openers, none].map((m) => open(m, 1)));
    for (const [i, m] of openers.entries()) {
      const r = results[i];
      expect(r?.statusCode, r?.body).toBe(200);
      const items = r?.json<OpenSynthChipsResponse>().createdItems ?? [];
      expect(items).toHaveLength(5);
      expect(new Set(items.map((x) => x.owner.nickname))).toEqual(new Set([m.nickname]));
      expect(await balanceOf(t.app, m, (await sale()).currencyId)).toBe('0');
    }
    expect([results[4]?.statusCode, results[4]?.json().message]).toEqual([409, 'Not enough synth chips']);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('concurrent purchases each keep their own outcome, in one batch or several', async () => {
    const rich = await Promise.all(Array.from({ length: 7 }, () => funded('1000')));
    const poor = await Promise.all(Array.from({ length: 3 }, () => funded('100')));
    const before = (await sale()).remaining;
    const results = await Promise.all([...rich, ...poor].map((m) => buy(m, 2)));
    expect(results.slice(0, 7).map((r) => r.statusCode)).toEqual(Array(7).fill(200));
    expect(results.slice(7).map((r) => [r.statusCode, r.json().message])).toEqual(
      Array(3).fill([409, 'Insufficient funds']),
    );
    // Each purchase saw what the ones before it left: seven different counts, two apart, down to the sale's.
    const remaining = results
      .slice(0, 7)
      .map((r) => r.json<BuySynthChipsResponse>().remaining)
      .sort((a, b) => b - a);
    expect(remaining).toEqual(Array.from({ length: 7 }, (_, i) => before - 2 * (i + 1)));
    expect((await sale()).remaining).toBe(before - 14);
    for (const m of rich) expect(await balanceOf(t.app, m, CREDITS)).toBe('0');
    for (const m of poor) expect(await balanceOf(t.app, m, CREDITS)).toBe('100');
    // With an Idempotency-Key a purchase runs on its own, and a repeat answers the first answer again.
    const keyed = await funded('500');
    const once = () =>
      call(t.app, keyed.token, 'POST', '/api/inventory/buySynthChips', { amount: 1 }, { 'idempotency-key': 'chips-1' });
    const [first, again] = [await once(), await once()];
    expect(first.statusCode, first.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await balanceOf(t.app, keyed, CREDITS)).toBe('0');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('concurrent buyers never oversell the supply; then it is All Sold Out', async () => {
    const whale = await funded('10000000');
    // Buy the sale down to 5 chips left.
    let left = (await sale()).remaining;
    while (left > 5) {
      const res = await buy(whale, Math.min(100, left - 5));
      expect(res.statusCode, res.body).toBe(200);
      left = res.json<BuySynthChipsResponse>().remaining;
    }
    const buyers = await Promise.all(Array.from({ length: 8 }, () => funded('1000')));
    const results = await Promise.all(buyers.map((b) => buy(b, 1)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(5);
    expect(
      results
        .filter((r) => r.statusCode === 409)
        .map((r) => r.json().message)
        .sort(),
    ).toEqual(Array(3).fill('All Sold Out'));
    expect(await sale()).toMatchObject({ remaining: 0, message: 'All Sold Out' });
    await expectLedgerBalanced(t.app, t.admin);
  });
});
