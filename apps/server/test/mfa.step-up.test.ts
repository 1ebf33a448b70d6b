/**
 * Step-up (DESIGN §11.1): with TOTP on, `withdraw`, a new API key and a new e-mail or password need
 * `mfaCode`: without it 403 `Two-factor code required`, wrong 400 `Invalid code`, and nothing changes
 * either way; a right code (or recovery code) passes once. Members without a second factor are not asked.
 */
import { fromNumeric, type User, type WithdrawResponse } from '@starlight/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueTicker } from './bank.helpers.ts';
import {
  balanceOf,
  call,
  expectLedgerBalanced,
  type Member,
  mint,
  PASSWORD,
  registerMember,
  useTestApp,
} from './helpers.ts';
import { codeAt, type Enrolled, enrol, wrongCode } from './mfa.helpers.ts';

const t = useTestApp();
const WALLET = '0xabcdef0123456789abcdef0123456789abcdef02';
let currencyId: number;

beforeAll(async () => {
  const res = await call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', {
    ticker: uniqueTicker(),
    name: 'Step-up Coin',
    precision: 2,
    canDeposit: true,
    canWithdraw: true,
    canTransfer: true,
    canMint: true,
    canBurn: true,
    depositTax: 0,
    withdrawTax: 0,
    transferTax: 0,
    imgUrl: 'https://example.com/s.png',
  });
  expect(res.statusCode, res.body).toBe(200);
  currencyId = res.json<{ currency: { currencyId: number } }>().currency.currencyId;
});

async function enrolled(prefix: string): Promise<{ m: Member; e: Enrolled }> {
  const m = await registerMember(t.app, prefix);
  return { m, e: await enrol(t.app, m.token) };
}

async function meOf(m: Member): Promise<User> {
  return (await call(t.app, m.token, 'GET', '/api/user/me')).json<{ user: User }>().user;
}

/** The two refusals every guarded call must give, and that nothing changed after them. */
async function expectRefusals(send: (mfaCode?: string) => ReturnType<typeof call>, secret: string) {
  const none = await send();
  expect(none.statusCode, none.body).toBe(403);
  expect(none.json().message).toBe('Two-factor code required');
  const wrong = await send(await wrongCode(secret));
  expect(wrong.statusCode, wrong.body).toBe(400);
  expect(wrong.json().message).toBe('Invalid code');
}

describe('withdraw', () => {
  it('needs a code; refused, nothing moves; with one, the withdrawal opens and the ledger balances', async () => {
    const { m, e } = await enrolled('upwd');
    await mint(t.app, t.admin, m.nickname, currencyId, '100');
    const send = (mfaCode?: string) =>
      call(t.app, m.token, 'POST', '/api/bank/withdraw', {
        currencyId,
        amount: '40',
        walletAddress: WALLET,
        ...(mfaCode === undefined ? {} : { mfaCode }),
      });
    await expectRefusals(send, e.secret);
    expect(await balanceOf(t.app, m, currencyId)).toBe('100');
    const ok = await send(await codeAt(e.secret));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(fromNumeric(ok.json<WithdrawResponse>().senderUser.balances[0]?.amount ?? '0')).toBe(fromNumeric('60'));
    expect(ok.json<WithdrawResponse>().senderUser.mfa).toEqual({ totp: true, passkeys: 0 });
    // The same code again is refused; a recovery code passes once.
    expect((await send(await codeAt(e.secret))).statusCode).toBe(400);
    expect((await send(e.recoveryCodes[0])).statusCode).toBe(200);
    expect((await send(e.recoveryCodes[0])).statusCode).toBe(400);
    expect(await balanceOf(t.app, m, currencyId)).toBe('20');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('replays a retry of a completed withdrawal under its Idempotency-Key, its used code and all', async () => {
    const { m, e } = await enrolled('upwr');
    await mint(t.app, t.admin, m.nickname, currencyId, '50');
    const body = { currencyId, amount: '30', walletAddress: WALLET, mfaCode: await codeAt(e.secret) };
    const headers = { 'idempotency-key': `withdraw-${m.nickname}` };
    const first = await call(t.app, m.token, 'POST', '/api/bank/withdraw', body, headers);
    expect(first.statusCode, first.body).toBe(200);
    const retry = await call(t.app, m.token, 'POST', '/api/bank/withdraw', body, headers);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toEqual(first.json());
    // The same code under a new key is a new withdrawal: refused, the code was used.
    const other = await call(t.app, m.token, 'POST', '/api/bank/withdraw', body, { 'idempotency-key': 'another' });
    expect(other.statusCode, other.body).toBe(400);
    expect(await balanceOf(t.app, m, currencyId)).toBe('20');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('asks nothing of a member without a second factor', async () => {
    const m = await registerMember(t.app, 'upwd');
    await mint(t.app, t.admin, m.nickname, currencyId, '10');
    const res = await call(t.app, m.token, 'POST', '/api/bank/withdraw', {
      currencyId,
      amount: '5',
      walletAddress: WALLET,
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('newApiKey', () => {
  it('needs a code in the POST; the GET, which has no body, is refused; nothing is made on refusal', async () => {
    const { m, e } = await enrolled('upkey');
    const get = await call(t.app, m.token, 'GET', '/api/user/newApiKey');
    expect(get.statusCode).toBe(403);
    expect(get.json().message).toBe('Two-factor code required');
    await expectRefusals(
      (mfaCode) => call(t.app, m.token, 'POST', '/api/user/newApiKey', mfaCode === undefined ? {} : { mfaCode }),
      e.secret,
    );
    expect((await call(t.app, m.token, 'GET', '/api/user/getApiKey')).json().apiKey).toBeNull();
    const ok = await call(t.app, m.token, 'POST', '/api/user/newApiKey', { mfaCode: await codeAt(e.secret) });
    expect(ok.statusCode, ok.body).toBe(200);
    const key = ok.json<{ apiKey: string }>().apiKey;
    expect((await call(t.app, m.token, 'GET', '/api/user/getApiKey')).json().apiKey).toBe(key);
  });

  it('makes a key without a code for a member without a second factor, by GET or POST', async () => {
    const m = await registerMember(t.app, 'upkey');
    expect((await call(t.app, m.token, 'GET', '/api/user/newApiKey')).statusCode).toBe(200);
    expect((await call(t.app, m.token, 'POST', '/api/user/newApiKey', {})).statusCode).toBe(200);
  });
});

describe('updateProfile', () => {
  it('needs a code for a new e-mail; nothing changes on refusal', async () => {
    const { m, e } = await enrolled('upmail');
    const email = `new-${m.nickname}@example.test`;
    await expectRefusals(
      (mfaCode) =>
        call(t.app, m.token, 'POST', '/api/user/updateProfile', {
          email,
          currentPassword: PASSWORD,
          ...(mfaCode === undefined ? {} : { mfaCode }),
        }),
      e.secret,
    );
    expect((await meOf(m)).email).toBe(m.email);
    const ok = await call(t.app, m.token, 'POST', '/api/user/updateProfile', {
      email,
      currentPassword: PASSWORD,
      mfaCode: await codeAt(e.secret),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await meOf(m)).email).toBe(email);
  });

  it('needs a code for a new password; the old password keeps working after a refusal', async () => {
    const { m, e } = await enrolled('uppw');
    const password = 'An0ther!Passw0rd';
    await expectRefusals(
      (mfaCode) =>
        call(t.app, m.token, 'POST', '/api/user/updateProfile', {
          password,
          currentPassword: PASSWORD,
          ...(mfaCode === undefined ? {} : { mfaCode }),
        }),
      e.secret,
    );
    const stillOld = await call(t.app, undefined, 'POST', '/api/user/login', {
      nickOrEmail: m.nickname,
      password: PASSWORD,
    });
    expect(stillOld.json().mfaRequired).toBe(true);
    const ok = await call(t.app, m.token, 'POST', '/api/user/updateProfile', {
      password,
      currentPassword: PASSWORD,
      mfaCode: await codeAt(e.secret),
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('asks no code for a nickname or the Private flag', async () => {
    const { m } = await enrolled('upnick');
    const res = await call(t.app, m.token, 'POST', '/api/user/updateProfile', { isAnonymous: true });
    expect(res.statusCode, res.body).toBe(200);
  });
});
