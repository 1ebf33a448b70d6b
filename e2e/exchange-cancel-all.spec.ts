/**
 * Cancel all in the Quantum Hub's My orders (DESIGN §11.4 cancelAllOrders), at desktop and phone size: the
 * button asks first, naming how many open orders go and on which pair; keeping them changes nothing;
 * confirming cancels that pair's orders only, returns their escrow, and leaves the button disabled while
 * nothing is open; All pairs then offers the rest. Screenshots of the panel and its dialog in the results.
 */
import { expect, type Page, test } from '@playwright/test';
import {
  adminSignIn,
  apiPost,
  createCurrency,
  expectNoSeriousA11yViolations,
  newPage,
  registerMember,
  storeSession,
  uniqueNick,
} from './fixtures.ts';

interface Pair {
  _id: string;
  name: string;
}

function myOrdersPanel(page: Page) {
  return page.getByRole('region', { name: 'My orders', exact: true });
}

/** A member's balance of `currencyId` as GET /api/user/me reports it. */
async function balanceOf(page: Page, token: string, currencyId: number): Promise<number> {
  const res = await page.request.get('/api/user/me', { headers: { authorization: `Bearer ${token}` } });
  const { user } = (await res.json()) as { user: { balances: Array<{ currencyId: number; amount: string }> } };
  return Number(user.balances.find((b) => b.currencyId === currencyId)?.amount ?? '0');
}

test('cancels all open orders of the pair after a confirmation, then of every pair', async ({
  browser,
  isMobile,
  request,
}, info) => {
  const admin = await adminSignIn(request);
  const base = await createCurrency(request, admin, { prefix: 'CA' });
  const quote = await createCurrency(request, admin, { prefix: 'CQ' });
  const other = await createCurrency(request, admin, { prefix: 'CO' });
  const pair = async (buyCurrency: number, sellCurrency: number) =>
    (
      await apiPost<{ pair: Pair }>(request, admin, '/api/cex/createPair', {
        buyCurrency,
        sellCurrency,
        canBuy: true,
        canSell: true,
      })
    ).pair;
  const first = await pair(base.currencyId, quote.currencyId);
  const second = await pair(other.currencyId, quote.currencyId);

  const member = await registerMember(request, uniqueNick('cxall'));
  const nick = member.user.nickname;
  for (const [currencyId, amount] of [
    [base.currencyId, '50'],
    [quote.currencyId, '100'],
    [other.currencyId, '20'],
  ] as const) {
    await apiPost(request, admin, '/api/bank/mint', {
      recipientNickName: nick,
      currencyId,
      amount,
      note: 'cancel all',
    });
  }
  const place = (p: string, buySide: boolean, initialAmount: string, price: string) =>
    apiPost(request, member.token, '/api/cex/placeOrder', { pair: p, buySide, initialAmount, price });
  await place(first._id, true, '10', '2'); // 20 of quote in escrow
  await place(first._id, false, '5', '3'); // 5 of base
  await place(second._id, false, '4', '1.5'); // 4 of other

  const page = await newPage(browser, isMobile);
  await storeSession(page, member);
  await page.addInitScript((p) => localStorage.setItem('quantumhubPair', p), first._id);
  await page.goto('/quantumhub');
  const panel = myOrdersPanel(page);
  await expect(panel.getByRole('table', { name: 'My orders' }).getByRole('row', { name: /order Placed/ })).toHaveCount(
    2,
  );
  const cancelAll = panel.getByRole('button', { name: /^Cancel all/ });
  await expect(cancelAll).toBeEnabled();
  await expect(cancelAll).toHaveAccessibleName(`Cancel all 2 open orders on ${first.name}`);
  await panel.scrollIntoViewIfNeeded();
  await panel.screenshot({ path: info.outputPath('my-orders-cancel-all.png') });

  // Asking first: how many and where; keeping them changes nothing.
  await cancelAll.click();
  const dialog = page.getByRole('dialog', { name: 'Cancel all open orders?' });
  await expect(dialog).toContainText(`Cancel 2 open orders on ${first.name}?`);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: info.outputPath('my-orders-cancel-all-confirm.png') });
  await dialog.getByRole('button', { name: 'Keep them' }).click();
  await expect(dialog).toHaveCount(0);
  expect(await balanceOf(page, member.token, quote.currencyId)).toBe(80);

  // Confirming, from the keyboard: this pair's two orders go, their escrow comes back.
  await cancelAll.focus();
  await page.keyboard.press('Enter');
  await dialog.getByRole('button', { name: 'Cancel 2 open orders' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '2 open orders cancelled' })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(panel.getByText('No orders Found')).toBeVisible();
  await expect(cancelAll).toBeDisabled();
  await expect(cancelAll).toHaveAccessibleName(`Cancel all: no open orders on ${first.name}`);
  expect(await balanceOf(page, member.token, quote.currencyId)).toBe(100);
  expect(await balanceOf(page, member.token, base.currencyId)).toBe(50);
  expect(await balanceOf(page, member.token, other.currencyId)).toBe(16);
  await panel.screenshot({ path: info.outputPath('my-orders-cancel-all-done.png') });

  // Every pair: the other pair's order is still open and goes too.
  await panel.getByText('All pairs', { exact: true }).click();
  await expect(cancelAll).toHaveAccessibleName('Cancel all 1 open order on every pair');
  await cancelAll.click();
  await expect(dialog).toContainText('Cancel 1 open order on every pair?');
  await dialog.getByRole('button', { name: 'Cancel 1 open order' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '1 open order cancelled' })).toBeVisible();
  await expect(cancelAll).toBeDisabled();
  expect(await balanceOf(page, member.token, other.currencyId)).toBe(20);

  const audit = await request.get('/api/bank/audit', { headers: { authorization: `Bearer ${admin}` } });
  expect(((await audit.json()) as { ok: boolean }).ok).toBe(true);
  await page.context().close();
});
