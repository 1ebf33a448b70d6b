/**
 * The security hold (DESIGN §11.2): for `SECURITY_HOLD_HOURS` after a password reset, an e-mail change or
 * two-factor being turned off (by the member or an admin's reset), `withdraw` answers 409 with the date
 * and nothing moves; other members withdraw as before. The holds of 0 hours turn both waits off; the
 * address confirmation mails share the hourly mail limit.
 */
import type { WithdrawAddressesResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueTicker } from './bank.helpers.ts';
import {
  balanceOf,
  call,
  expectLedgerBalanced,
  type Member,
  makeApp,
  mint,
  PASSWORD,
  registerMember,
  type TestApp,
  useTestApp,
} from './helpers.ts';
import { type MailCatcher, startMailCatcher } from './mail-catcher.ts';
import { codeAt, enrol } from './mfa.helpers.ts';

const PUBLIC_URL = 'https://starlight.example';
const WALLET = '0xabcdef0123456789abcdef0123456789abcdef55';
const PAUSED =
  /^Withdrawals are paused until (\d{4}-\d\d-\d\d \d\d:\d\d) UTC after a change to your account's security$/;

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await catcher?.close();
});

const t = useTestApp({}, { build: () => makeApp({ SMTP_URL: catcher.url, PUBLIC_URL }) });

async function newCurrency(on: TestApp): Promise<number> {
  const res = await call(on.app, on.admin.token, 'POST', '/api/bank/createCurrency', {
    ticker: uniqueTicker(),
    name: 'Hold Coin',
    precision: 2,
    canDeposit: true,
    canWithdraw: true,
    canTransfer: true,
    canMint: true,
    canBurn: true,
    depositTax: 0,
    withdrawTax: 0,
    transferTax: 0,
    imgUrl: 'https://example.com/h.png',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ currency: { currencyId: number } }>().currency.currencyId;
}

let currencyId: number;
beforeAll(async () => {
  currencyId = await newCurrency(t);
});

async function funded(prefix: string): Promise<Member> {
  const m = await registerMember(t.app, prefix);
  await mint(t.app, t.admin, m.nickname, currencyId, '100');
  return m;
}

function withdraw(m: Member, body: Record<string, unknown> = {}) {
  return call(t.app, m.token, 'POST', '/api/bank/withdraw', {
    currencyId,
    amount: '10',
    walletAddress: WALLET,
    ...body,
  });
}

/** Expects `m`'s withdrawal refused for a hold ending about `hours` from now; nothing moved. */
async function expectPaused(m: Member, hours = 24) {
  const res = await withdraw(m);
  expect(res.statusCode, res.body).toBe(409);
  const date = PAUSED.exec(res.json().message)?.[1];
  expect(date, res.json().message).toBeDefined();
  const until = new Date(`${date?.replace(' ', 'T')}:00Z`).getTime();
  expect(Math.abs(until - (Date.now() + hours * 3600_000))).toBeLessThan(2 * 60_000);
  expect(await balanceOf(t.app, m, currencyId)).toBe('100');
  const list = await call(t.app, m.token, 'POST', '/api/bank/withdrawAddresses', {});
  const paused = list.json<WithdrawAddressesResponse>().withdrawalsPausedUntil;
  expect(Math.abs(new Date(paused ?? 0).getTime() - (Date.now() + hours * 3600_000))).toBeLessThan(60_000);
}

/** The hold of `userId` passed: moved back by hand. */
async function holdPassed(userId: string) {
  await t.built.database.db.execute(
    sql`UPDATE security_holds SET until = now() - interval '1 minute' WHERE user_id = ${userId}`,
  );
}

describe('withdrawals pause after a security change', () => {
  it('after a password reset, until the hold passes', async () => {
    const m = await funded('shr');
    const bystander = await funded('shr');
    expect((await call(t.app, undefined, 'POST', '/api/user/forgotPassword', { email: m.email })).statusCode).toBe(200);
    const token = (await catcher.next(m.email)).link?.split('/').pop();
    const reset = await call(t.app, undefined, 'POST', '/api/user/resetPassword', {
      token,
      password: 'N3w!Passw0rd-x',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const login = await call(t.app, undefined, 'POST', '/api/user/login', {
      nickOrEmail: m.nickname,
      password: 'N3w!Passw0rd-x',
    });
    const signedIn = { ...m, token: login.json<{ token: string }>().token };
    await expectPaused(signedIn);
    expect((await withdraw(bystander)).statusCode).toBe(200);
    await holdPassed(m.id);
    const after = await withdraw(signedIn);
    expect(after.statusCode, after.body).toBe(200);
    expect(await balanceOf(t.app, signedIn, currencyId)).toBe('90');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('after an e-mail change, not after a nickname change', async () => {
    const m = await funded('she');
    const renamed = await call(t.app, m.token, 'POST', '/api/user/updateProfile', { nickname: `${m.nickname}x` });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await withdraw(m)).statusCode).toBe(200);
    const changed = await call(t.app, m.token, 'POST', '/api/user/updateProfile', {
      email: `new.${m.email}`,
      currentPassword: PASSWORD,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await mint(t.app, t.admin, `${m.nickname}x`, currencyId, '10');
    await expectPaused(m);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('after two-factor is turned off by the member, and by an admin', async () => {
    const m = await funded('sht');
    const { secret } = await enrol(t.app, m.token);
    // Two-factor on: withdrawals go, with a code.
    expect((await withdraw(m, { mfaCode: await codeAt(secret) })).statusCode).toBe(200);
    await mint(t.app, t.admin, m.nickname, currencyId, '10');
    const off = await call(t.app, m.token, 'POST', '/api/user/mfa/totp/disable', { code: await codeAt(secret, 1) });
    expect(off.statusCode, off.body).toBe(200);
    await expectPaused(m);

    const other = await funded('sha');
    await enrol(t.app, other.token);
    const reset = await call(t.app, t.admin.token, 'POST', '/api/user/resetUserMfa', { nickname: other.nickname });
    expect(reset.statusCode, reset.body).toBe(200);
    await expectPaused(other);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('never shortens a longer hold', async () => {
    const m = await funded('shl');
    await t.built.database.db.execute(
      sql`INSERT INTO security_holds (user_id, until, reason) VALUES (${m.id}, now() + interval '72 hours', 'test')`,
    );
    const changed = await call(t.app, m.token, 'POST', '/api/user/updateProfile', {
      email: `new.${m.email}`,
      currentPassword: PASSWORD,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await expectPaused(m, 72);
  });
});

describe('confirmation mails', () => {
  it('count against the hourly mail limit: past it, nothing is saved', async () => {
    const m = await registerMember(t.app, 'shm');
    const add = (i: number) =>
      call(t.app, m.token, 'POST', '/api/bank/addWithdrawAddress', {
        currencyId,
        walletAddress: `0x${String(i).padStart(40, '7')}`,
        label: `W${i}`,
      });
    for (let i = 0; i < 3; i++) expect((await add(i)).statusCode).toBe(200);
    const past = await add(3);
    expect(past.statusCode).toBe(429);
    expect(past.json().message).toBe('Too many confirmation mails this hour; try again later');
    const list = await call(t.app, m.token, 'POST', '/api/bank/withdrawAddresses', {});
    expect(list.json<WithdrawAddressesResponse>().addresses).toHaveLength(3);
  });
});

describe('holds of 0 hours', () => {
  const z = useTestApp(
    {},
    {
      build: () =>
        makeApp({ SMTP_URL: catcher.url, PUBLIC_URL, WITHDRAW_ADDRESS_HOLD_HOURS: '0', SECURITY_HOLD_HOURS: '0' }),
    },
  );

  it('make a confirmed address active at once, the switch off at once, and set no security hold', async () => {
    const cid = await newCurrency(z);
    const m = await registerMember(z.app, 'shz');
    await mint(z.app, z.admin, m.nickname, cid, '50');
    const post = (url: string, body: Record<string, unknown>) => call(z.app, m.token, 'POST', `/api/bank/${url}`, body);
    expect(
      (await post('addWithdrawAddress', { currencyId: cid, walletAddress: WALLET, label: 'Now' })).statusCode,
    ).toBe(200);
    const mail = await catcher.next(m.email);
    expect(mail.text).toContain('Once confirmed, withdrawals can go to it at once.');
    const confirmed = await post('confirmWithdrawAddress', { token: mail.link?.split('/').pop() });
    expect(confirmed.json().address.state).toBe('active');
    expect(confirmed.json().message).toBe('Withdrawal address Now is confirmed: withdrawals can go to it now');
    expect((await post('setAllowListOnly', { on: true })).statusCode).toBe(200);
    const free = '0xabcdef0123456789abcdef0123456789abcdef66';
    expect((await post('withdraw', { currencyId: cid, amount: '5', walletAddress: free })).statusCode).toBe(409);
    expect((await post('withdraw', { currencyId: cid, amount: '5', walletAddress: WALLET })).statusCode).toBe(200);
    const off = await post('setAllowListOnly', { on: false });
    expect(off.json<WithdrawAddressesResponse>()).toMatchObject({
      allowListOnly: false,
      allowListOffFrom: null,
      message: 'Withdrawals can go to any address',
    });
    expect((await post('withdraw', { currencyId: cid, amount: '5', walletAddress: free })).statusCode).toBe(200);
    const changed = await call(z.app, m.token, 'POST', '/api/user/updateProfile', {
      email: `new.${m.email}`,
      currentPassword: PASSWORD,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await post('withdraw', { currencyId: cid, amount: '5', walletAddress: free })).statusCode).toBe(200);
    expect(await balanceOf(z.app, m, cid)).toBe('35');
    await expectLedgerBalanced(z.app, z.admin);
  });
});
