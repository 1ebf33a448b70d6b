/**
 * Deposits and withdrawals (DESIGN §8): a withdrawal debits at once with its tax, a deposit
 * credits nothing until approved, a settlement settles once even under concurrent clicks, and the
 * ledger stays conserved with no negative balance.
 */
import {
  fromNumeric,
  type GetSettlementsResponse,
  type Settlement,
  type SettleResponse,
  UNIT,
  type WithdrawResponse,
} from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueTicker } from './bank.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, type Member, mint, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const WALLET = '0xabcdef0123456789abcdef0123456789abcdef01';
let currencyId: number;
let collector: Member;

/** A currency of its own (2 decimals, 10% withdrawal tax, 5% deposit tax to a collector). */
beforeAll(async () => {
  collector = await registerMember(t.app, 'collect');
  const res = await call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', {
    ticker: uniqueTicker(),
    name: 'Withdrawable Coin',
    precision: 2,
    canDeposit: true,
    canWithdraw: true,
    canTransfer: true,
    canMint: true,
    canBurn: true,
    depositTax: 0.05,
    withdrawTax: 0.1,
    transferTax: 0,
    taxCollector: collector.nickname,
    imgUrl: 'https://example.com/w.png',
  });
  expect(res.statusCode, res.body).toBe(200);
  currencyId = res.json<{ currency: { currencyId: number } }>().currency.currencyId;
});

async function funded(amount: string): Promise<Member> {
  const m = await registerMember(t.app, 'wd');
  await mint(t.app, t.admin, m.nickname, currencyId, amount);
  return m;
}

function withdraw(m: Member, amount: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/bank/withdraw',
    headers: { authorization: `Bearer ${m.token}`, ...headers },
    payload: { currencyId, amount, walletAddress: WALLET.toUpperCase().replace('0X', '0x') },
  });
}

function settle(settlementId: string, approve: boolean, note = '') {
  return call(t.app, t.admin.token, 'POST', '/api/bank/settle', { settlementId, approve, note });
}

async function ledgerRowsFor(reference: string): Promise<number> {
  const res = await t.built.database.db.execute(
    sql`SELECT count(*)::int AS n FROM bank_transactions WHERE reference = ${reference}`,
  );
  return Number((res.rows[0] as { n: number }).n);
}

describe('withdraw', () => {
  it('debits the amount and its tax at once and opens a pending withdrawal', async () => {
    const m = await funded('100');
    const collected = await balanceOf(t.app, collector, currencyId);
    const res = await withdraw(m, '40');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<WithdrawResponse>();
    expect(body.settlement).toMatchObject({
      kind: 'withdrawal',
      user: { nickname: m.nickname },
      currencyId,
      amount: '40.00',
      tax: '4.00',
      walletAddress: WALLET,
      state: 'pending',
      settledAt: null,
    });
    expect(body.senderUser.balances).toContainEqual({ currencyId, amount: '56.00' });
    expect(await balanceOf(t.app, collector, currencyId)).toBe(String(Number(collected) + 4));
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refused, pays the amount and the tax back; approved, moves nothing more', async () => {
    const m = await funded('50');
    const refused = (await withdraw(m, '10')).json<WithdrawResponse>().settlement;
    const approved = (await withdraw(m, '20')).json<WithdrawResponse>().settlement;
    expect(await balanceOf(t.app, m, currencyId)).toBe('17');

    const r = await settle(refused._id, false, 'wrong chain');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json<SettleResponse>().settlement).toMatchObject({ state: 'refused', note: 'wrong chain' });
    expect(await balanceOf(t.app, m, currencyId)).toBe('28');

    const rowsBefore = await ledgerRowsFor(approved._id);
    const a = await settle(approved._id, true, 'paid tx 0x1');
    expect(a.statusCode).toBe(200);
    expect(a.json<SettleResponse>().settlement.state).toBe('approved');
    expect(a.json<SettleResponse>().settlement.settledAt).toEqual(expect.any(String));
    expect(await balanceOf(t.app, m, currencyId)).toBe('28');
    expect(await ledgerRowsFor(approved._id)).toBe(rowsBefore);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('rounds the withdrawal tax up: 0.05 at 10% pays 0.01, not nothing (DESIGN §4)', async () => {
    const m = await funded('1');
    const res = await withdraw(m, '0.05');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<WithdrawResponse>().settlement).toMatchObject({ amount: '0.05', tax: '0.01' });
    expect(await balanceOf(t.app, m, currencyId)).toBe('0.94');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses insufficient funds (amount plus tax) and writes nothing', async () => {
    const m = await funded('10');
    const before = await t.built.database.db.execute(sql`SELECT count(*)::int AS n FROM settlements`);
    const res = await withdraw(m, '10');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Insufficient funds');
    const after = await t.built.database.db.execute(sql`SELECT count(*)::int AS n FROM settlements`);
    expect(after.rows).toEqual(before.rows);
    expect(await balanceOf(t.app, m, currencyId)).toBe('10');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('concurrent withdrawals each keep their own outcome, and answer the settlement as stored', async () => {
    // Each member can pay one withdrawal of 20 (22 with the tax) and not two: of their two concurrent
    // requests one is written and one refused, whichever batch each goes in.
    const members = await Promise.all(Array.from({ length: 6 }, () => funded('30')));
    const collected = await balanceOf(t.app, collector, currencyId);
    const results = await Promise.all(members.flatMap((m) => [withdraw(m, '20'), withdraw(m, '20')]));
    for (const [i, m] of members.entries()) {
      const mine = [results[2 * i], results[2 * i + 1]].map((r) => r?.statusCode).sort();
      expect(mine, m.nickname).toEqual([200, 409]);
      expect(await balanceOf(t.app, m, currencyId)).toBe('8');
    }
    expect(results.filter((r) => r.statusCode === 409).map((r) => r.json().message)).toEqual(
      Array(6).fill('Insufficient funds'),
    );
    // Six taxes of 2.00 reached the collector (10^-9 units, no float).
    expect(fromNumeric(await balanceOf(t.app, collector, currencyId)) - fromNumeric(collected)).toBe(12n * UNIT);
    const listed = await call(t.app, t.admin.token, 'POST', '/api/bank/getSettlements', {
      kind: 'withdrawal',
      paging: { page: 1, limit: 50 },
    });
    const byId = new Map(listed.json<GetSettlementsResponse>().settlements.map((x) => [x._id, x]));
    for (const r of results.filter((x) => x.statusCode === 200)) {
      const body = r.json<WithdrawResponse>();
      expect(byId.get(body.settlement._id)).toEqual(body.settlement);
      expect(body.senderUser.balances).toContainEqual({ currencyId, amount: '8.00' });
      expect(await ledgerRowsFor(body.settlement._id)).toBe(2);
    }
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses a currency that cannot be withdrawn', async () => {
    const m = await registerMember(t.app, 'nowd');
    await mint(t.app, t.admin, m.nickname, 1, '5');
    const res = await call(t.app, m.token, 'POST', '/api/bank/withdraw', {
      currencyId: 1,
      amount: '1',
      walletAddress: WALLET,
    });
    // SD (currency 1) allows no withdrawals in the seed.
    expect(res.statusCode).toBe(409);
    expect(await balanceOf(t.app, m, 1)).toBe('5');
  });

  it.each([
    [{ amount: '1', walletAddress: WALLET }, '"currencyId" is required'],
    [{ currencyId: 1, amount: '0.001', walletAddress: WALLET }, 'Amount must be at least 0.01'],
    [{ currencyId: 1, amount: '1', walletAddress: 'short' }, '"walletAddress" contains an invalid value'],
    [{ currencyId: 1, amount: '1' }, '"walletAddress" is required'],
  ])('answers 400 for %j with SPEC’s message', async (body, message) => {
    const m = await registerMember(t.app, 'bad');
    const res = await call(t.app, m.token, 'POST', '/api/bank/withdraw', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('moves money once for a repeated Idempotency-Key', async () => {
    const m = await funded('30');
    const key = { 'idempotency-key': `wd-${Date.now()}` };
    const first = await withdraw(m, '10', key);
    const again = await withdraw(m, '10', key);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json<WithdrawResponse>().settlement._id).toBe(first.json<WithdrawResponse>().settlement._id);
    expect(await balanceOf(t.app, m, currencyId)).toBe('19');
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('deposit', () => {
  it('credits nothing until approved; approved, credits the amount less the deposit tax', async () => {
    const m = await registerMember(t.app, 'dep');
    const res = await call(t.app, m.token, 'POST', '/api/bank/deposit', {
      currencyId,
      amount: '20',
      walletAddress: WALLET,
      reference: '0xdeadbeef',
    });
    expect(res.statusCode, res.body).toBe(200);
    const claim = res.json<{ settlement: Settlement }>().settlement;
    expect(claim).toMatchObject({ kind: 'deposit', amount: '20.00', reference: '0xdeadbeef', state: 'pending' });
    expect(await balanceOf(t.app, m, currencyId)).toBe('0');
    expect((await settle(claim._id, true)).statusCode).toBe(200);
    expect(await balanceOf(t.app, m, currencyId)).toBe('19');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refused, credits nothing', async () => {
    const m = await registerMember(t.app, 'depno');
    const claim = (
      await call(t.app, m.token, 'POST', '/api/bank/deposit', {
        currencyId,
        amount: '20',
        walletAddress: WALLET,
        reference: 'tx-unknown',
      })
    ).json<{ settlement: Settlement }>().settlement;
    expect((await settle(claim._id, false, 'no such transaction')).statusCode).toBe(200);
    expect(await balanceOf(t.app, m, currencyId)).toBe('0');
    expect(await ledgerRowsFor(claim._id)).toBe(0);
  });

  it('refuses a currency that takes no deposits', async () => {
    const m = await registerMember(t.app, 'depsd');
    const res = await call(t.app, m.token, 'POST', '/api/bank/deposit', {
      currencyId: 1,
      amount: '1',
      walletAddress: WALLET,
      reference: 'x',
    });
    expect(res.statusCode).toBe(409);
  });
});

describe('deposit references', () => {
  const TAKEN = 'This deposit reference has already been claimed';

  function claim(m: Member, reference: string, currency = currencyId) {
    return call(t.app, m.token, 'POST', '/api/bank/deposit', {
      currencyId: currency,
      amount: '5',
      walletAddress: WALLET,
      reference,
    });
  }

  async function claimsOf(reference: string): Promise<string[]> {
    const res = await t.built.database.db.execute<{ state: string }>(
      sql`SELECT state FROM settlements WHERE kind = 'deposit' AND lower(btrim(reference)) = lower(${reference}) ORDER BY created_at`,
    );
    return res.rows.map((r) => r.state);
  }

  it('a reference is claimed once per currency (trimmed, in any case): a second claim is 409 and opens nothing', async () => {
    const ref = `0xref${uniqueTicker().toLowerCase()}`;
    const a = await registerMember(t.app, 'refa');
    const b = await registerMember(t.app, 'refb');
    const first = await claim(a, `  ${ref}  `);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<{ settlement: Settlement }>().settlement.reference).toBe(ref);
    for (const [who, again] of [
      [a, ref],
      [b, ref],
      [b, ref.toUpperCase().replace('0X', '0x')],
      [b, ` ${ref}\t`],
    ] as const) {
      const res = await claim(who, again);
      expect(res.statusCode, again).toBe(409);
      expect(res.json().message).toBe(TAKEN);
    }
    const blank = await claim(b, '   ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('"reference" contains an invalid value');
    expect(await claimsOf(ref)).toEqual(['pending']);
  });

  it('an approved claim keeps its reference; a refused one frees it; another currency has its own', async () => {
    const ref = `tx-${uniqueTicker()}`;
    const m = await registerMember(t.app, 'reff');
    const first = (await claim(m, ref)).json<{ settlement: Settlement }>().settlement;
    expect((await settle(first._id, false, 'not received')).statusCode).toBe(200);
    const second = await claim(m, ref);
    expect(second.statusCode, second.body).toBe(200);
    expect((await settle(second.json<{ settlement: Settlement }>().settlement._id, true)).statusCode).toBe(200);
    expect((await claim(m, ref)).statusCode).toBe(409);

    const other = await call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', {
      ticker: uniqueTicker(),
      name: 'Other Deposit Coin',
      precision: 2,
      canDeposit: true,
      canWithdraw: false,
      canTransfer: true,
      canMint: true,
      canBurn: true,
    });
    expect(other.statusCode, other.body).toBe(200);
    const otherId = other.json<{ currency: { currencyId: number } }>().currency.currencyId;
    expect((await claim(m, ref, otherId)).statusCode).toBe(200);
    expect(await claimsOf(ref)).toEqual(['refused', 'approved', 'pending']);
    expect(await balanceOf(t.app, m, currencyId)).toBe('4.75');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('10 concurrent claims of one reference: exactly one succeeds, the rest are 409', async () => {
    const ref = `race-${uniqueTicker()}`;
    const members = await Promise.all(Array.from({ length: 10 }, () => registerMember(t.app, 'refr')));
    const results = await Promise.all(members.map((m) => claim(m, ref)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(9);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().message).toBe(TAKEN);
    expect(await claimsOf(ref)).toEqual(['pending']);
  });
});

describe('settle', () => {
  it('settles once under 20 concurrent clicks: one 200, the rest 409, one refund', async () => {
    const m = await funded('20');
    const s = (await withdraw(m, '10')).json<WithdrawResponse>().settlement;
    const results = await Promise.all(Array.from({ length: 20 }, () => settle(s._id, false)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    expect(await balanceOf(t.app, m, currencyId)).toBe('20');
    // The withdrawal's two rows and one refund.
    expect(await ledgerRowsFor(s._id)).toBe(3);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('answers 404 for an unknown settlement and writes an admin log row for a settled one', async () => {
    expect((await settle('a'.repeat(24), true)).statusCode).toBe(404);
    const m = await funded('20');
    const s = (await withdraw(m, '5')).json<WithdrawResponse>().settlement;
    await settle(s._id, true, 'sent');
    const logs = await call(t.app, t.admin.token, 'POST', '/api/audit/getAdminLogs', {
      paging: { limit: 10, page: 1 },
      affectedUser: m.nickname,
      category: 30,
    });
    expect(logs.json().logs[0].action).toContain('Approved withdrawal of 5.00');
  });

  it('is for admins only; members neither list nor settle', async () => {
    const m = await funded('20');
    const s = (await withdraw(m, '5')).json<WithdrawResponse>().settlement;
    expect(
      (await call(t.app, m.token, 'POST', '/api/bank/settle', { settlementId: s._id, approve: false, note: '' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call(t.app, m.token, 'POST', '/api/bank/getSettlements', { paging: { limit: 10, page: 1 } })).statusCode,
    ).toBe(403);
    expect(await balanceOf(t.app, m, currencyId)).toBe('14.5');
  });

  it('lists pending first, filtered by kind and state, with total', async () => {
    const m = await funded('20');
    await withdraw(m, '1');
    const res = await call(t.app, t.admin.token, 'POST', '/api/bank/getSettlements', {
      paging: { limit: 50, page: 1 },
      kind: 'withdrawal',
    });
    const body = res.json<GetSettlementsResponse>();
    expect(body.total).toBeGreaterThan(0);
    expect(body.settlements.every((s) => s.kind === 'withdrawal')).toBe(true);
    const states = body.settlements.map((s) => s.state);
    const firstSettled = states.findIndex((s) => s !== 'pending');
    if (firstSettled >= 0) expect(states.slice(firstSettled).includes('pending')).toBe(false);
    const pending = (
      await call(t.app, t.admin.token, 'POST', '/api/bank/getSettlements', {
        paging: { limit: 50, page: 1 },
        state: 'pending',
      })
    ).json<GetSettlementsResponse>();
    expect(pending.settlements.every((s) => s.state === 'pending')).toBe(true);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
