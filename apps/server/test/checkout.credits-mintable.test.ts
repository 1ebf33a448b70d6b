/**
 * No payment is taken for Credits that cannot be issued (DESIGN §4 canMint): while an
 * admin has Credits' minting turned off, or Credits frozen, buyPackage answers 409 and opens no
 * checkout. A purchase already paid still completes: the member paid for it. On a database of its own,
 * since it changes the Credits currency every other test file buys.
 */
import { describe, expect, it } from 'vitest';
import { buy, publishedPackage } from './checkout.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, makeAppOnOwnDatabase, registerMember, useTestApp } from './helpers.ts';

const CREDITS = 3;
const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('checkout_mintable') });

async function setCredits(fields: Record<string, unknown>): Promise<void> {
  const res = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', { currencyId: CREDITS, ...fields });
  expect(res.statusCode, res.body).toBe(200);
}

async function checkoutsOf(token: string): Promise<number> {
  const res = await call(t.app, token, 'POST', '/api/checkout/getTransactions', { paging: { limit: 50, page: 1 } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ total: number }>().total;
}

describe('buyPackage while Credits cannot be issued', () => {
  it('is refused (409) and opens nothing; a checkout opened before still credits when paid', async () => {
    const pkg = await publishedPackage(t, { amount: '300' });
    const m = await registerMember(t.app, 'nomint');
    const before = await buy(t, m, pkg, 2);

    await setCredits({ canMint: false });
    const refused = await call(t.app, m.token, 'POST', '/api/checkout/buyPackage', {
      packageId: pkg._id,
      providerId: 2,
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe('CR cannot be minted');
    expect(await checkoutsOf(m.token)).toBe(1);

    // The one opened before the change was paid for: it completes and credits once.
    const pay = await call(t.app, m.token, 'POST', `/api/checkout/sandbox/${before.checkout._id}/pay`);
    expect(pay.statusCode, pay.body).toBe(200);
    expect(await balanceOf(t.app, m, CREDITS)).toBe('300');

    await setCredits({ canMint: true, isFrozen: true, frozenNote: 'Credits are paused for maintenance' });
    const frozen = await call(t.app, m.token, 'POST', '/api/checkout/buyPackage', {
      packageId: pkg._id,
      providerId: 1,
    });
    expect(frozen.statusCode, frozen.body).toBe(409);
    expect(frozen.json().message).toBe('Credits are paused for maintenance');
    expect(await checkoutsOf(m.token)).toBe(1);

    await setCredits({ isFrozen: false });
    await buy(t, m, pkg, 1);
    expect(await checkoutsOf(m.token)).toBe(2);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
