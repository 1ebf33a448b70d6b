/**
 * Withdrawal addresses and the "allowed addresses only" switch (DESIGN §11.2): an address is mailed a
 * link, confirmed once, and usable after the hold; with the switch on, `withdraw` goes only to an active
 * address; the switch turns off only after the hold; adding an address and turning the switch off need the
 * step-up; bad input changes nothing; an admin sees a member's list.
 */
import {
  MAX_WITHDRAW_ADDRESSES,
  type WithdrawAddressesResponse,
  type WithdrawAddressResponse,
  type WithdrawResponse,
} from '@starlight/shared';
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
  registerMember,
  useTestApp,
} from './helpers.ts';
import { type MailCatcher, startMailCatcher } from './mail-catcher.ts';
import { codeAt, enrol, wrongCode } from './mfa.helpers.ts';
import { newWallet, walletCalls } from './users.wallet.helpers.ts';

const PUBLIC_URL = 'https://starlight.example';
const WALLET = '0xAbCdEf0123456789abcdef0123456789abcdef11';
const OTHER_WALLET = '0xabcdef0123456789abcdef0123456789abcdef22';

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await catcher?.close();
});

// Many addresses per member in this file: the hourly mail budget is not what it is about.
const t = useTestApp({}, { build: () => makeApp({ SMTP_URL: catcher.url, PUBLIC_URL, RATE_LIMIT_MAILS: '1000' }) });

let currencyId: number;
let noWithdraw: { currencyId: number; ticker: string };

async function createCurrency(canWithdraw: boolean) {
  const ticker = uniqueTicker();
  const res = await call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', {
    ticker,
    name: 'Address Coin',
    precision: 2,
    canDeposit: true,
    canWithdraw,
    canTransfer: true,
    canMint: true,
    canBurn: true,
    depositTax: 0,
    withdrawTax: 0,
    transferTax: 0,
    imgUrl: 'https://example.com/a.png',
  });
  expect(res.statusCode, res.body).toBe(200);
  return { currencyId: res.json<{ currency: { currencyId: number } }>().currency.currencyId, ticker };
}

beforeAll(async () => {
  currencyId = (await createCurrency(true)).currencyId;
  noWithdraw = await createCurrency(false);
});

function post(m: Member | undefined, url: string, body: Record<string, unknown>) {
  return call(t.app, m?.token, 'POST', `/api/bank/${url}`, body);
}

async function listOf(m: Member): Promise<WithdrawAddressesResponse> {
  const res = await post(m, 'withdrawAddresses', {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json<WithdrawAddressesResponse>();
}

/** Adds an address and returns it with the token of the link mailed for it. */
async function add(m: Member, body: Record<string, unknown> = {}) {
  const res = await post(m, 'addWithdrawAddress', { currencyId, walletAddress: WALLET, label: 'Cold wallet', ...body });
  expect(res.statusCode, res.body).toBe(200);
  const { address } = res.json<WithdrawAddressResponse>();
  const mail = await catcher.next(m.email);
  const token = mail.link?.split('/').pop() ?? '';
  return { address, token, mail };
}

function confirm(token: string) {
  return post(undefined, 'confirmWithdrawAddress', { token });
}

/** The hold of a confirmed address passed: its `active_from` moved back by hand. */
async function holdPassed(addressId: string) {
  await t.built.database.db.execute(
    sql`UPDATE withdraw_addresses SET active_from = now() - interval '1 minute' WHERE id = ${addressId}`,
  );
}

async function storedAddresses(userId: string): Promise<number> {
  const res = await t.built.database.db.execute(
    sql`SELECT count(*)::int AS n FROM withdraw_addresses WHERE user_id = ${userId}`,
  );
  return Number((res.rows[0] as { n: number }).n);
}

function withdraw(m: Member, walletAddress: string, amount = '10', cid = currencyId) {
  return post(m, 'withdraw', { currencyId: cid, amount, walletAddress });
}

describe('adding, confirming and removing addresses', () => {
  it('mails a link, confirms it once, shows the states newest first', async () => {
    const m = await registerMember(t.app, 'wa');
    const { address, token, mail } = await add(m, { label: 'Cold <wallet>' });
    expect(address).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      currencyId,
      walletAddress: WALLET.toLowerCase(),
      label: 'Cold <wallet>',
      state: 'unconfirmed',
      activeFrom: null,
      createdAt: expect.any(String),
    });
    expect(mail.link).toMatch(new RegExp(`^${PUBLIC_URL}/withdrawaddress/[A-Za-z0-9_-]{150,}$`));
    expect(mail.text).toContain(WALLET.toLowerCase());
    expect(mail.text).toContain('after 24 hours');
    expect(mail.html).toContain('Cold &#60;wallet&#62;');
    expect(mail.html).not.toContain('<wallet>');
    // Only the token's hash is kept.
    const stored = await t.built.database.db.execute(sql`SELECT * FROM withdraw_addresses WHERE id = ${address._id}`);
    expect(JSON.stringify(stored.rows)).not.toContain(token);

    const confirmed = await confirm(token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const body = confirmed.json<WithdrawAddressResponse>();
    expect(body.address.state).toBe('waiting');
    const activeFrom = new Date(body.address.activeFrom ?? 0).getTime();
    expect(Math.abs(activeFrom - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000);
    expect(body.message).toMatch(
      /^Withdrawal address Cold <wallet> is confirmed: withdrawals can go to it from \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );
    // The link works once.
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('This link is invalid or has expired');

    const second = await add(m, { walletAddress: OTHER_WALLET, label: 'Exchange' });
    await holdPassed(address._id);
    const list = await listOf(m);
    expect(list.addresses.map((a) => [a.label, a.state])).toEqual([
      ['Exchange', 'unconfirmed'],
      ['Cold <wallet>', 'active'],
    ]);
    expect(list).toMatchObject({ allowListOnly: false, allowListOffFrom: null, withdrawalsPausedUntil: null });
    expect(list.message).toBe('You have 2 withdrawal addresses');

    const removed = await post(m, 'removeWithdrawAddress', { _id: second.address._id });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ message: 'Withdrawal address Exchange removed' });
    expect((await listOf(m)).addresses.map((a) => a.label)).toEqual(['Cold <wallet>']);
    // A removed address's link no longer confirms anything.
    expect((await confirm(second.token)).statusCode).toBe(400);
  });

  it('refuses an expired link and an unknown one', async () => {
    const m = await registerMember(t.app, 'wax');
    const { address, token } = await add(m);
    await t.built.database.db.execute(
      sql`UPDATE withdraw_addresses SET token_expires_at = now() - interval '1 second' WHERE id = ${address._id}`,
    );
    expect((await confirm(token)).statusCode).toBe(400);
    expect((await confirm('x'.repeat(192))).json().message).toBe('This link is invalid or has expired');
    expect((await listOf(m)).addresses[0]?.state).toBe('unconfirmed');
  });

  it('refuses bad input and changes nothing', async () => {
    const m = await registerMember(t.app, 'wab');
    const other = await registerMember(t.app, 'wab');
    await add(m);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ currencyId: 999_999 }, 404, 'Currency not found'],
      [{ currencyId: noWithdraw.currencyId }, 409, `${noWithdraw.ticker} cannot be withdrawn`],
      [
        { walletAddress: WALLET.toUpperCase().replace('0X', '0x') },
        409,
        'This address is already in your withdrawal addresses',
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(m, 'addWithdrawAddress', { currencyId, walletAddress: WALLET, label: 'x', ...body });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message).toBe(message);
    }
    const blank = await post(m, 'addWithdrawAddress', { currencyId, walletAddress: OTHER_WALLET, label: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(await storedAddresses(m.id)).toBe(1);
    // Another member's address, or an unknown id: not found, and it stays.
    const mine = (await listOf(m)).addresses[0]?._id;
    for (const _id of [mine, 'a'.repeat(24)]) {
      const res = await post(other, 'removeWithdrawAddress', { _id });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Withdrawal address not found');
    }
    expect(await storedAddresses(m.id)).toBe(1);
    // The same address is another member's to add too.
    await add(other);
  });

  it(`keeps at most ${MAX_WITHDRAW_ADDRESSES} addresses`, async () => {
    const m = await registerMember(t.app, 'wam');
    for (let i = 0; i < MAX_WITHDRAW_ADDRESSES; i++) {
      const res = await post(m, 'addWithdrawAddress', {
        currencyId,
        walletAddress: `0x${String(i).padStart(40, '0')}`,
        label: `Wallet ${i}`,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await post(m, 'addWithdrawAddress', { currencyId, walletAddress: WALLET, label: 'One more' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('You can keep at most 20 withdrawal addresses');
    expect(await storedAddresses(m.id)).toBe(MAX_WITHDRAW_ADDRESSES);
  });

  it('asks a wallet-only account for an e-mail first', async () => {
    const { registerWallet } = walletCalls(t);
    const auth = await registerWallet(newWallet());
    const m = { id: auth.user._id, nickname: auth.user.nickname, email: '', token: auth.token };
    const res = await post(m, 'addWithdrawAddress', { currencyId, walletAddress: WALLET, label: 'x' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Add an e-mail address to your account to confirm withdrawal addresses');
    expect(await storedAddresses(m.id)).toBe(0);
  });

  it('is managed from a session only; a key with read may list', async () => {
    const m = await registerMember(t.app, 'wak');
    const made = await call(t.app, m.token, 'POST', '/api/user/apiKeys/create', {
      name: 'all',
      scopes: ['read', 'trade', 'transfer', 'withdraw'],
    });
    const headers = { 'x-api-key': made.json<{ secret: string }>().secret };
    const addByKey = await call(
      t.app,
      undefined,
      'POST',
      '/api/bank/addWithdrawAddress',
      {
        currencyId,
        walletAddress: WALLET,
        label: 'x',
      },
      headers,
    );
    expect(addByKey.statusCode).toBe(403);
    const offByKey = await call(t.app, undefined, 'POST', '/api/bank/setAllowListOnly', { on: true }, headers);
    expect(offByKey.statusCode).toBe(403);
    const listByKey = await call(t.app, undefined, 'POST', '/api/bank/withdrawAddresses', {}, headers);
    expect(listByKey.statusCode, listByKey.body).toBe(200);
    expect(await storedAddresses(m.id)).toBe(0);
  });
});

describe('the allowed-addresses-only switch', () => {
  it('sends withdrawals only to active addresses; turning it off waits the hold', async () => {
    const m = await registerMember(t.app, 'wsw');
    await mint(t.app, t.admin, m.nickname, currencyId, '100');
    const active = await add(m, { label: 'Active' });
    expect((await confirm(active.token)).statusCode).toBe(200);
    await holdPassed(active.address._id);
    const waiting = await add(m, { walletAddress: OTHER_WALLET, label: 'Waiting' });
    expect((await confirm(waiting.token)).statusCode).toBe(200);
    const unconfirmed = '0xabcdef0123456789abcdef0123456789abcdef33';
    await add(m, { walletAddress: unconfirmed, label: 'Unconfirmed' });
    const otherCurrency = await createCurrency(true);
    await mint(t.app, t.admin, m.nickname, otherCurrency.currencyId, '10');

    const on = await post(m, 'setAllowListOnly', { on: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json<WithdrawAddressesResponse>()).toMatchObject({ allowListOnly: true, allowListOffFrom: null });
    for (const [address, cid] of [
      [OTHER_WALLET, currencyId],
      [unconfirmed, currencyId],
      ['0xabcdef0123456789abcdef0123456789abcdef44', currencyId],
      // An active address of another currency is not this one's.
      [WALLET, otherCurrency.currencyId],
    ] as const) {
      const res = await withdraw(m, address, '10', cid);
      expect(res.statusCode, `${address} ${res.body}`).toBe(409);
      expect(res.json().message).toBe('This address is not in your withdrawal addresses');
    }
    expect(await balanceOf(t.app, m, currencyId)).toBe('100');
    // The active one, in any case, passes.
    const ok = await withdraw(m, WALLET.toUpperCase().replace('0X', '0x'));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<WithdrawResponse>().settlement.walletAddress).toBe(WALLET.toLowerCase());

    // Off waits the hold: still on meanwhile; asking again changes nothing.
    const off = await post(m, 'setAllowListOnly', { on: false });
    expect(off.statusCode, off.body).toBe(200);
    const offBody = off.json<WithdrawAddressesResponse>();
    expect(offBody.allowListOnly).toBe(true);
    const offFrom = new Date(offBody.allowListOffFrom ?? 0).getTime();
    expect(Math.abs(offFrom - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000);
    expect(offBody.message).toMatch(/^Withdrawals go only to your active withdrawal addresses until .+ UTC$/);
    const offAgain = (await post(m, 'setAllowListOnly', { on: false })).json<WithdrawAddressesResponse>();
    expect(offAgain.allowListOffFrom).toBe(offBody.allowListOffFrom);
    expect((await withdraw(m, OTHER_WALLET)).statusCode).toBe(409);

    // The hold passed (moved back by hand): off, any address goes.
    await t.built.database.db.execute(
      sql`UPDATE withdraw_allow_lists SET off_from = now() - interval '1 minute' WHERE user_id = ${m.id}`,
    );
    expect(await listOf(m)).toMatchObject({ allowListOnly: false, allowListOffFrom: null });
    const free = await withdraw(m, OTHER_WALLET);
    expect(free.statusCode, free.body).toBe(200);
    // On again at once.
    expect((await post(m, 'setAllowListOnly', { on: true })).json().allowListOnly).toBe(true);
    expect((await withdraw(m, unconfirmed)).statusCode).toBe(409);
    expect(await balanceOf(t.app, m, currencyId)).toBe('80');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses per withdrawal in one batch: the others go on', async () => {
    const m = await registerMember(t.app, 'wsb');
    const free = await registerMember(t.app, 'wsb');
    await mint(t.app, t.admin, m.nickname, currencyId, '50');
    await mint(t.app, t.admin, free.nickname, currencyId, '50');
    expect((await post(m, 'setAllowListOnly', { on: true })).statusCode).toBe(200);
    const results = await Promise.all([
      withdraw(m, OTHER_WALLET),
      withdraw(free, OTHER_WALLET),
      withdraw(m, WALLET),
      withdraw(free, WALLET),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([409, 200, 409, 200]);
    expect(await balanceOf(t.app, m, currencyId)).toBe('50');
    expect(await balanceOf(t.app, free, currencyId)).toBe('30');
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('step-up', () => {
  it('needs a code to add an address and to turn the switch off; refused, nothing changes', async () => {
    const m = await registerMember(t.app, 'wst');
    const { secret } = await enrol(t.app, m.token);
    const body = { currencyId, walletAddress: WALLET, label: 'Guarded' };
    const none = await post(m, 'addWithdrawAddress', body);
    expect(none.statusCode).toBe(403);
    expect(none.json().message).toBe('Two-factor code required');
    const wrong = await post(m, 'addWithdrawAddress', { ...body, mfaCode: await wrongCode(secret) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Invalid code');
    expect(await storedAddresses(m.id)).toBe(0);
    const ok = await post(m, 'addWithdrawAddress', { ...body, mfaCode: await codeAt(secret) });
    expect(ok.statusCode, ok.body).toBe(200);
    await catcher.next(m.email);

    // On needs no code; off does.
    expect((await post(m, 'setAllowListOnly', { on: true })).statusCode).toBe(200);
    const offNone = await post(m, 'setAllowListOnly', { on: false });
    expect(offNone.statusCode).toBe(403);
    const offWrong = await post(m, 'setAllowListOnly', { on: false, mfaCode: await wrongCode(secret) });
    expect(offWrong.statusCode).toBe(400);
    expect((await listOf(m)).allowListOffFrom).toBeNull();
    const off = await post(m, 'setAllowListOnly', { on: false, mfaCode: await codeAt(secret, 1) });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json<WithdrawAddressesResponse>().allowListOffFrom).not.toBeNull();
  });
});

describe("an admin and a member's addresses", () => {
  it('lists them; an unknown nickname is not found; a member cannot ask', async () => {
    const m = await registerMember(t.app, 'wad');
    const { address } = await add(m, { label: 'Seen by admin' });
    await post(m, 'setAllowListOnly', { on: true });
    const res = await post(t.admin, 'getUserWithdrawAddresses', { nickname: m.nickname });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<WithdrawAddressesResponse>()).toEqual({
      addresses: [address],
      allowListOnly: true,
      allowListOffFrom: null,
      withdrawalsPausedUntil: null,
      message: `${m.nickname} has 1 withdrawal address`,
    });
    const unknown = await post(t.admin, 'getUserWithdrawAddresses', { nickname: 'nosuchmember' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('User not found');
    expect((await post(m, 'getUserWithdrawAddresses', { nickname: m.nickname })).statusCode).toBe(403);
  });
});
