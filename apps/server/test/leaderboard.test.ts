/**
 * The leaderboard (DESIGN §6): the top holders of a currency with amounts at its precision,
 * private members shown as Anonymous to everyone but themselves, the caller's rank, balance and
 * neighbours, and 10,000 holders ranked in order. Each test ranks a currency of its own.
 */
import type { Currency, LeaderboardResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { bankCalls } from './bank.helpers.ts';
import {
  call,
  eventually,
  expectLedgerBalanced,
  type Member,
  makeApp,
  mint,
  registerMember,
  useTestApp,
} from './helpers.ts';
import { caughtUp } from './leaderboard.helpers.ts';

const t = useTestApp();
const bank = bankCalls(t);

function board(currencyId: unknown, token?: string) {
  return call(t.app, token, 'POST', '/api/user/leaderboard', { currencyId });
}

/** The leaderboard once the kept ranking has followed every posting so far. */
async function ranked(currencyId: number, token?: string): Promise<LeaderboardResponse> {
  await caughtUp(t.built);
  const res = await board(currencyId, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<LeaderboardResponse>();
}

/** Members holding `amounts` of `currency`, in that order. */
async function holders(currency: Currency, amounts: string[]): Promise<Member[]> {
  const out: Member[] = [];
  for (const amount of amounts) {
    const m = await registerMember(t.app, 'lb');
    if (amount !== '0') await mint(t.app, t.admin, m.nickname, currency.currencyId, amount);
    out.push(m);
  }
  return out;
}

describe('leaderboard', () => {
  it('ranks holders by amount for a visitor, at the currency precision, with no position', async () => {
    const coin = await bank.newCurrency({ precision: 2 });
    const [a, b, c] = await holders(coin, ['5', '12.5', '7']);
    const res = await ranked(coin.currencyId);
    expect(res.leaders).toEqual([
      { rank: 1, nickname: b?.nickname, amount: '12.50' },
      { rank: 2, nickname: c?.nickname, amount: '7.00' },
      { rank: 3, nickname: a?.nickname, amount: '5.00' },
    ]);
    expect(res).toMatchObject({ position: null, balance: null, around: [] });
  });

  it('gives a signed-in member their rank, balance and neighbours; nothing held, no rank', async () => {
    const coin = await bank.newCurrency({ precision: 0 });
    const members = await holders(coin, ['10', '20', '30', '0']);
    const [ten, , , none] = members as [Member, Member, Member, Member];
    const mine = await ranked(coin.currencyId, ten.token);
    expect(mine.position).toBe(3);
    expect(mine.balance).toBe('10');
    expect(mine.around.map((l) => l.rank)).toEqual([1, 2, 3]);
    expect(mine.around.at(-1)).toEqual({ rank: 3, nickname: ten.nickname, amount: '10' });
    const nothing = await ranked(coin.currencyId, none.token);
    expect(nothing).toMatchObject({ position: null, balance: null, around: [] });
    expect(nothing.leaders).toHaveLength(3);
  });

  it('shows a private member as Anonymous to others, and by name to themselves', async () => {
    const coin = await bank.newCurrency();
    const [priv, other] = (await holders(coin, ['50', '40'])) as [Member, Member];
    const set = await call(t.app, priv.token, 'POST', '/api/user/updateProfile', { isAnonymous: true });
    expect(set.statusCode, set.body).toBe(200);
    const seen = await ranked(coin.currencyId, other.token);
    expect(seen.leaders[0]).toEqual({ rank: 1, nickname: 'Anonymous', amount: '50.00' });
    expect(seen.around[0]?.nickname).toBe('Anonymous');
    expect(JSON.stringify(seen)).not.toContain(priv.nickname);
    expect(JSON.stringify(await ranked(coin.currencyId))).not.toContain(priv.nickname);
    const self = await ranked(coin.currencyId, priv.token);
    expect(self.leaders[0]?.nickname).toBe(priv.nickname);
    expect(self.position).toBe(1);
  });

  it.each([
    [{}, 400, '"currencyId" is required'],
    [{ currencyId: 'x' }, 400, '"currencyId" contains an invalid value'],
    [{ currencyId: 1, extra: 1 }, 400, '"extra" is not allowed'],
    [{ currencyId: 987654 }, 404, 'Currency not found'],
  ])('refuses %j with %i %s', async (body, status, message) => {
    const res = await call(t.app, undefined, 'POST', '/api/user/leaderboard', body);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
  });

  it('a bad token on this public route is just a visitor', async () => {
    const res = await call(t.app, 'not-a-token', 'POST', '/api/user/leaderboard', { currencyId: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json().position).toBeNull();
  });

  it('ranks 10,000 holders: the top 100 in order and a member in the middle at their place', async () => {
    const coin = await bank.newCurrency({ precision: 0 });
    const db = t.built.database.db;
    // 10,000 members holding 1..10,000 units (ties broken by id), minted through ledger rows so the
    // audit still balances.
    await db.execute(sql`
      INSERT INTO users (id, nickname, email)
      SELECT 'ffff' || lpad(to_hex(${coin.currencyId}::int), 8, '0') || lpad(to_hex(i), 12, '0'),
             'lbbulk' || ${coin.currencyId} || 'x' || i, NULL
      FROM generate_series(1, 10000) AS i`);
    await db.execute(sql`
      INSERT INTO balances (user_id, currency_id, amount)
      SELECT 'ffff' || lpad(to_hex(${coin.currencyId}::int), 8, '0') || lpad(to_hex(i), 12, '0'), ${coin.currencyId}::int, i
      FROM generate_series(1, 10000) AS i`);
    await db.execute(sql`
      INSERT INTO bank_transactions (id, category, currency_id, amount, executor_id, sender_id, recipient_id, note)
      SELECT 'eeee' || lpad(to_hex(${coin.currencyId}::int), 8, '0') || lpad(to_hex(i), 12, '0'), 10, ${coin.currencyId}::int, i,
             NULL, NULL, 'ffff' || lpad(to_hex(${coin.currencyId}::int), 8, '0') || lpad(to_hex(i), 12, '0'), 'bulk'
      FROM generate_series(1, 10000) AS i`);
    const [mid] = await holders(coin, ['5000']);
    const res = await ranked(coin.currencyId, mid?.token);
    expect(res.leaders).toHaveLength(100);
    expect(res.leaders[0]).toEqual({ rank: 1, nickname: `lbbulk${coin.currencyId}x10000`, amount: '10000' });
    expect(res.leaders[99]).toEqual({ rank: 100, nickname: `lbbulk${coin.currencyId}x9901`, amount: '9901' });
    // 5,000 members hold more than 5,000; of the two holding exactly 5,000 the smaller id ranks first
    // (ids start with their creation time; the bulk ones were made to start with ffff).
    expect(res.position).toBe(5001);
    expect(res.balance).toBe('5000');
    expect(res.around.map((l) => l.rank)).toEqual([4996, 4997, 4998, 4999, 5000, 5001, 5002, 5003, 5004, 5005, 5006]);
    expect(res.around[5]).toEqual({ rank: 5001, nickname: mid?.nickname, amount: '5000' });
    expect(res.around[6]).toEqual({ rank: 5002, nickname: `lbbulk${coin.currencyId}x5000`, amount: '5000' });
    // Climbing to just outside the top 100, then into its last place: seen at once, before the kept
    // ranking follows (their leaders are everyone's only while they stay outside).
    const climb = async (amount: string) => {
      await mint(t.app, t.admin, mid?.nickname ?? '', coin.currencyId, amount);
      const now = await board(coin.currencyId, mid?.token);
      expect(now.statusCode, now.body).toBe(200);
      return now.json<LeaderboardResponse>();
    };
    const outside = await climb('4900');
    expect(outside.position).toBe(101);
    expect(outside.leaders[99]).toEqual({ rank: 100, nickname: `lbbulk${coin.currencyId}x9901`, amount: '9901' });
    const last = await climb('1');
    expect(last.position).toBe(100);
    expect(last.leaders).toHaveLength(100);
    expect(last.leaders[99]).toEqual({ rank: 100, nickname: mid?.nickname, amount: '9901' });
    expect(last.leaders[98]).toEqual({ rank: 99, nickname: `lbbulk${coin.currencyId}x9902`, amount: '9902' });
    const visitor = await ranked(coin.currencyId);
    expect(visitor.leaders[99]).toEqual(last.leaders[99]);
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('the currency a leaderboard shows', () => {
  let b: BuiltApp;
  beforeAll(async () => {
    b = await makeApp();
  });
  afterAll(() => b.app.close());

  it('follows a change of precision at once on the server that made it, and soon on another', async () => {
    const coin = await bank.newCurrency({ precision: 2 });
    const [whale, shrimp] = await holders(coin, ['12.5', '3']);
    const onB = async () => {
      const res = await call(b.app, shrimp?.token, 'POST', '/api/user/leaderboard', { currencyId: coin.currencyId });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<LeaderboardResponse>();
    };
    // Both servers answer (and keep the currency) at precision 2.
    expect((await ranked(coin.currencyId)).leaders[0]).toEqual({ rank: 1, nickname: whale?.nickname, amount: '12.50' });
    expect((await onB()).balance).toBe('3.00');

    const modified = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      precision: 3,
    });
    expect(modified.statusCode, modified.body).toBe(200);
    const now = await ranked(coin.currencyId, shrimp?.token);
    expect(now.leaders.map((l) => l.amount)).toEqual(['12.500', '3.000']);
    expect(now.balance).toBe('3.000');
    const later = await eventually(onB, (r) => r.balance === '3.000');
    expect(later.leaders.map((l) => l.amount)).toEqual(['12.500', '3.000']);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
