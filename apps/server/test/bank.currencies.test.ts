/** The bank's currencies through the API (SPEC §7 Bank, DESIGN §3): listing, creation, changes. */
import type { Currency } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bankCalls, currencyBody, uniqueTicker } from './bank.helpers.ts';
import { createMarket, fundedMember, placeOk } from './exchange.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, mint, registerMember, uniqueNick, useTestApp } from './helpers.ts';

const t = useTestApp();
const { newCurrency, transfer, listCurrencies, adminLogs } = bankCalls(t);

describe('GET /api/bank/currencies', () => {
  it('lists the seeded currencies to anyone, taxes as fraction strings', async () => {
    const res = await call(t.app, undefined, 'GET', '/api/bank/currencies');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ currencies: Currency[]; message: string }>();
    expect(body.message).toEqual(expect.any(String));
    const byId = new Map(body.currencies.map((c) => [c.currencyId, c]));
    expect(byId.get(1)).toMatchObject({
      ticker: 'SD',
      precision: 2,
      canTransfer: true,
      transferTax: '0.01',
      taxCollector: 'admin',
    });
    expect(byId.get(2)).toMatchObject({ ticker: 'SN', precision: 2, canTransfer: true, transferTax: '0' });
    expect(byId.get(3)).toMatchObject({ ticker: 'CR', name: 'Credits', canTransfer: false });
  });
});

describe('POST /api/bank/createCurrency', () => {
  it('assigns the next id, lists the currency and logs admin action 2', async () => {
    const before = Math.max(...(await listCurrencies()).map((c) => c.currencyId));
    const ticker = uniqueTicker();
    const res = await call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', {
      ticker,
      name: 'Moon Rock',
      precision: 4,
      canDeposit: true,
      canWithdraw: false,
      canTransfer: true,
      canMint: true,
      canBurn: false,
      depositTax: 0,
      withdrawTax: '1',
      transferTax: 0.025,
      imgUrl: 'https://example.test/moon.png',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { currency, message } = res.json<{ currency: Currency; message: string }>();
    expect(message).toEqual(expect.any(String));
    expect(currency.currencyId).toBeGreaterThan(before);
    expect(currency).toEqual({
      currencyId: currency.currencyId,
      ticker,
      name: 'Moon Rock',
      precision: 4,
      canDeposit: true,
      canWithdraw: false,
      canTransfer: true,
      canMint: true,
      canBurn: false,
      isFrozen: false,
      frozenNote: '',
      depositTax: '0',
      withdrawTax: '1',
      transferTax: '0.025',
      taxCollector: '',
      imgUrl: 'https://example.test/moon.png',
    });
    expect((await listCurrencies()).find((c) => c.currencyId === currency.currencyId)).toEqual(currency);
    const logs = await adminLogs(sql`category = 2 AND action LIKE ${`%${ticker}%`}`);
    expect(logs).toHaveLength(1);
    expect(logs[0]?.admin_id).toBe(t.admin.id);
  });

  it('gives concurrent creations distinct ids', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', currencyBody({ name: 'Race Coin' })),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const ids = results.map((r) => r.json<{ currency: Currency }>().currency.currencyId);
    expect(new Set(ids).size).toBe(8);
  });

  it('refuses a taken ticker in any case with 409', async () => {
    const coin = await newCurrency();
    const res = await call(
      t.app,
      t.admin.token,
      'POST',
      '/api/bank/createCurrency',
      currencyBody({ ticker: coin.ticker.toLowerCase(), name: 'Copy Coin' }),
    );
    expect(res.statusCode).toBe(409);
    const sd = await call(
      t.app,
      t.admin.token,
      'POST',
      '/api/bank/createCurrency',
      currencyBody({ ticker: 'SD', name: 'Copy Coin' }),
    );
    expect(sd.statusCode).toBe(409);
  });

  it('refuses taxes above 1 or below 0, bad precision, bad tickers and unknown collectors', async () => {
    const base = currencyBody({ name: 'Bad Coin' });
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ transferTax: 1.01 }, '"transferTax" contains an invalid value'],
      [{ transferTax: '1.5' }, '"transferTax" contains an invalid value'],
      [{ depositTax: -0.1 }, '"depositTax" contains an invalid value'],
      [{ withdrawTax: 5 }, '"withdrawTax" contains an invalid value'],
      [{ precision: 10 }, '"precision" contains an invalid value'],
      [{ precision: -1 }, '"precision" contains an invalid value'],
      [{ precision: 1.5 }, '"precision" contains an invalid value'],
      [{ ticker: 'X' }, '"ticker" contains an invalid value'],
      [{ ticker: 'TOOLONG1' }, '"ticker" contains an invalid value'],
      [{ ticker: 'A-B' }, '"ticker" contains an invalid value'],
      [{ name: 'ab' }, '"name" contains an invalid value'],
      [{ currencyId: 99 }, '"currencyId" is not allowed'],
      [{ taxCollector: uniqueNick('nobody') }, '"taxCollector" contains an invalid value'],
    ];
    for (const [change, message] of refused) {
      const res = await call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', { ...base, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await listCurrencies()).some((c) => c.ticker === base.ticker)).toBe(false);
  });

  it('is for admins only', async () => {
    const m = await registerMember(t.app, 'cc');
    const res = await call(t.app, m.token, 'POST', '/api/bank/createCurrency', currencyBody({ name: 'Mine Coin' }));
    expect(res.statusCode).toBe(403);
  });
});

describe('POST /api/bank/modifyCurrency', () => {
  it('changes only the fields given and logs admin action 3', async () => {
    const coin = await newCurrency({ transferTax: '0.02' });
    const res = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      name: 'Renamed Coin',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ currency: Currency }>().currency).toEqual({ ...coin, name: 'Renamed Coin' });
    const tax = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      transferTax: 0.5,
      canMint: false,
    });
    expect(tax.statusCode, tax.body).toBe(200);
    expect(tax.json<{ currency: Currency }>().currency).toEqual({
      ...coin,
      name: 'Renamed Coin',
      transferTax: '0.5',
      canMint: false,
    });
    expect((await listCurrencies()).find((c) => c.currencyId === coin.currencyId)?.transferTax).toBe('0.5');
    const logs = await adminLogs(sql`category = 3 AND action LIKE ${`%${coin.ticker}%`}`);
    expect(logs).toHaveLength(2);
  });

  it('applies a changed tax to the next transfer', async () => {
    const coin = await newCurrency();
    const a = await registerMember(t.app, 'newtax');
    const b = await registerMember(t.app, 'newtax');
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '10');
    await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      transferTax: '0.25',
    });
    expect((await transfer(a, b.nickname, coin.currencyId, '4')).statusCode).toBe(200);
    expect(await balanceOf(t.app, b, coin.currencyId)).toBe('3');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses the ticker (400), an unknown id (404), bad values (400) and members (403)', async () => {
    const coin = await newCurrency();
    const ticker = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      ticker: 'NEWT',
    });
    expect(ticker.statusCode).toBe(400);
    expect(ticker.json().message).toBe('"ticker" is not allowed');
    const unknown = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: 99999,
      name: 'Nobody Coin',
    });
    expect(unknown.statusCode).toBe(404);
    const tax = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      transferTax: 2,
    });
    expect(tax.statusCode).toBe(400);
    expect(tax.json().message).toBe('"transferTax" contains an invalid value');
    const noId = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', { name: 'No Id Coin' });
    expect(noId.statusCode).toBe(400);
    expect(noId.json().message).toBe('"currencyId" is required');
    const m = await registerMember(t.app, 'mc');
    const member = await call(t.app, m.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      isFrozen: true,
    });
    expect(member.statusCode).toBe(403);
    expect((await listCurrencies()).find((c) => c.currencyId === coin.currencyId)).toEqual(coin);
  });
});

describe('modifyCurrency: a precision no holding would fit is refused', () => {
  const setPrecision = (currencyId: number, precision: number) =>
    call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', { currencyId, precision });

  async function expectUnchanged(coin: Currency) {
    expect((await listCurrencies()).find((c) => c.currencyId === coin.currencyId)).toEqual(coin);
    expect(await adminLogs(sql`category = 3 AND action LIKE ${`%${coin.ticker}%`}`)).toHaveLength(0);
  }

  it('refuses a precision below the finest balance (409, nothing changed); one that fits is fine', async () => {
    const coin = await newCurrency({ precision: 3 });
    const m = await registerMember(t.app, 'fine');
    await mint(t.app, t.admin, m.nickname, coin.currencyId, '1.005');
    await mint(t.app, t.admin, (await registerMember(t.app, 'coarse')).nickname, coin.currencyId, '7.1');
    for (const precision of [2, 0]) {
      const res = await setPrecision(coin.currencyId, precision);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(`Precision ${precision} is below the finest balance of this currency (1.005)`);
    }
    await expectUnchanged(coin);
    expect(await balanceOf(t.app, m, coin.currencyId)).toBe('1.005');

    for (const precision of [3, 4, 3]) {
      const res = await setPrecision(coin.currencyId, precision);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ currency: Currency }>().currency.precision).toBe(precision);
    }
    // Once no balance is finer (1.005 + 0.015 = 1.02), the coarser precision is allowed.
    await mint(t.app, t.admin, m.nickname, coin.currencyId, '0.015');
    expect((await setPrecision(coin.currencyId, 2)).statusCode).toBe(200);
    expect((await setPrecision(coin.currencyId, 1)).json().message).toBe(
      'Precision 1 is below the finest balance of this currency (1.02)',
    );
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('counts what open orders hold in escrow, their amounts and their prices', async () => {
    const { pair, base, quote } = await createMarket(t.app, t.admin, {}, { base: 3, quote: 3 });
    // The seller's whole balance goes into escrow: no balance is finer than 2 decimals afterwards.
    const seller = await fundedMember(t.app, t.admin, { [base.currencyId]: '1.005' }, 'esc');
    await placeOk(t.app, seller, pair._id, false, '1.005', '2');
    expect(await balanceOf(t.app, seller, base.currencyId)).toBe('0');
    const refused = await setPrecision(base.currencyId, 2);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Precision 2 is below an open order of this currency (1.005)');

    // A buy at a price of 1.5 quote per unit escrows 3 quote: the price alone is what a coarser quote refuses.
    const buyer = await fundedMember(t.app, t.admin, { [quote.currencyId]: '3' }, 'esc');
    await placeOk(t.app, buyer, pair._id, true, '2', '1.5');
    const byPrice = await setPrecision(quote.currencyId, 0);
    expect(byPrice.statusCode).toBe(409);
    expect(byPrice.json().message).toBe('Precision 0 is below an open order of this currency (1.5)');
    expect((await setPrecision(quote.currencyId, 1)).statusCode).toBe(200);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('counts pending deposits and withdrawals', async () => {
    const coin = await newCurrency({ precision: 3, canDeposit: true });
    const m = await registerMember(t.app, 'setl');
    const claim = await call(t.app, m.token, 'POST', '/api/bank/deposit', {
      currencyId: coin.currencyId,
      amount: '2.125',
      walletAddress: '0xabcdef0123456789abcdef0123456789abcdef01',
      reference: `ref-${uniqueTicker()}`,
    });
    expect(claim.statusCode, claim.body).toBe(200);
    const res = await setPrecision(coin.currencyId, 2);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Precision 2 is below a pending deposit or withdrawal of this currency (2.125)');
    await expectUnchanged(coin);
  });
});
