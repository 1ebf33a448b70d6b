/**
 * The sandbox is a development tool (DESIGN §7): in production (`NODE_ENV=production`) it is off unless
 * `CHECKOUT_SANDBOX=on`, so a server with no provider keys mints no Credits for anyone. Then buyPackage
 * answers 409 `No payment provider is configured` and opens nothing, the sandbox's buttons answer 404
 * (even on a checkout the sandbox opened before), and the store says which providers can be used.
 */
import type { PackagesResponse } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { buy, publishedPackage } from './checkout.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, registerMember, testConfig, useTestApp } from './helpers.ts';

const CREDITS = 3;
const production = useTestApp({ NODE_ENV: 'production' });
const productionWithSandbox = useTestApp({ NODE_ENV: 'production', CHECKOUT_SANDBOX: 'on' });

async function providersOf(t: typeof production): Promise<PackagesResponse['providers']> {
  const res = await call(t.app, undefined, 'GET', '/api/checkout/packages/fetch');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PackagesResponse>().providers;
}

describe('CHECKOUT_SANDBOX', () => {
  it('defaults to on outside production and off in production; only on or off', () => {
    expect(testConfig().CHECKOUT_SANDBOX).toBe('on');
    expect(testConfig({ NODE_ENV: 'development' }).CHECKOUT_SANDBOX).toBe('on');
    expect(testConfig({ NODE_ENV: 'production' }).CHECKOUT_SANDBOX).toBe('off');
    expect(testConfig({ NODE_ENV: 'production', CHECKOUT_SANDBOX: 'on' }).CHECKOUT_SANDBOX).toBe('on');
    expect(testConfig({ CHECKOUT_SANDBOX: 'off' }).CHECKOUT_SANDBOX).toBe('off');
    expect(() => loadConfig({ CHECKOUT_SANDBOX: 'yes' })).toThrow(/CHECKOUT_SANDBOX/);
  });
});

describe('production with no provider keys', () => {
  it('the store lists no provider; buyPackage is refused (409) and opens no checkout', async () => {
    expect(await providersOf(production)).toEqual([]);
    const pkg = await publishedPackage(production);
    const m = await registerMember(production.app, 'prod');
    for (const providerId of [1, 2]) {
      const res = await call(production.app, m.token, 'POST', '/api/checkout/buyPackage', {
        packageId: pkg._id,
        providerId,
      });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe('No payment provider is configured');
    }
    const logs = await call(production.app, m.token, 'POST', '/api/checkout/getTransactions', {
      paging: { limit: 50, page: 1 },
    });
    expect(logs.json().total).toBe(0);
    expect(await balanceOf(production.app, m, CREDITS)).toBe('0');
    await expectLedgerBalanced(production.app, production.admin);
  });

  it("the sandbox's buttons answer 404 and mint nothing, even on a checkout the sandbox opened", async () => {
    // Opened while the sandbox served (a server with CHECKOUT_SANDBOX=on on the same database).
    const pkg = await publishedPackage(productionWithSandbox);
    const m = await registerMember(productionWithSandbox.app, 'prod');
    const bought = await buy(productionWithSandbox, m, pkg, 2);
    for (const action of ['pay', 'refund', 'fail']) {
      const res = await call(production.app, m.token, 'POST', `/api/checkout/sandbox/${bought.checkout._id}/${action}`);
      expect(res.statusCode, res.body).toBe(404);
    }
    const unknown = await call(production.app, m.token, 'POST', `/api/checkout/sandbox/${'a'.repeat(24)}/pay`);
    expect(unknown.statusCode).toBe(404);
    expect(await balanceOf(production.app, m, CREDITS)).toBe('0');
    await expectLedgerBalanced(production.app, production.admin);
  });
});

describe('production with CHECKOUT_SANDBOX=on', () => {
  it('the sandbox serves both providers: a purchase and Pay credit once', async () => {
    expect(await providersOf(productionWithSandbox)).toEqual([1, 2]);
    const pkg = await publishedPackage(productionWithSandbox, { amount: '250' });
    const m = await registerMember(productionWithSandbox.app, 'prod');
    const bought = await buy(productionWithSandbox, m, pkg, 1);
    expect(bought.link).toBe(`/checkout/sandbox/${bought.checkout._id}`);
    const pay = await call(
      productionWithSandbox.app,
      m.token,
      'POST',
      `/api/checkout/sandbox/${bought.checkout._id}/pay`,
    );
    expect(pay.statusCode, pay.body).toBe(200);
    expect(pay.json().outcome).toBe('completed');
    expect(await balanceOf(productionWithSandbox.app, m, CREDITS)).toBe('250');
    await expectLedgerBalanced(productionWithSandbox.app, productionWithSandbox.admin);
  });
});
