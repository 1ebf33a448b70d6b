/**
 * A retried transfer moves the money once (DESIGN §3): the member's first Send reaches the server and
 * commits, but its answer is lost (the browser sees a network failure, 'Network Error'); pressing Send
 * again resends the same body under the same Idempotency-Key, so the server answers the first result
 * instead of paying a second time. Ends with the ledger's audit: no negative balance, supply conserved.
 */
import { type APIRequestContext, expect, test } from '@playwright/test';
import { adminSignIn, apiPost, createCurrency, newPage, registerMember, storeSession, uniqueNick } from './fixtures.ts';

/** `nick`'s balance of `currencyId` (decimal string, '0' when none) as GET /api/user/me reports it. */
async function balanceOf(request: APIRequestContext, token: string, currencyId: number): Promise<string> {
  const res = await request.get('/api/user/me', { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  const { user } = (await res.json()) as { user: { balances: Array<{ currencyId: number; amount: string }> } };
  return user.balances.find((b) => b.currencyId === currencyId)?.amount ?? '0';
}

test('a transfer whose answer was lost, sent again, pays the receiver once', async ({ browser, isMobile, request }) => {
  const admin = await adminSignIn(request);
  // A currency of its own (no tax), so its supply is this test's alone.
  const { currencyId, ticker } = await createCurrency(request, admin, { prefix: 'RT' });
  const alice = await registerMember(request, uniqueNick('rta'));
  const bob = await registerMember(request, uniqueNick('rtb'));
  await apiPost(request, admin, '/api/bank/mint', {
    recipientNickName: alice.user.nickname,
    currencyId,
    amount: '100',
    note: 'retry e2e',
  });

  const page = await newPage(browser, isMobile);
  await storeSession(page, alice);
  // The first transfer reaches the server and commits; the browser is then told the connection failed.
  const keys: Array<string | undefined> = [];
  await page.route('**/api/bank/p2pTransfer', async (route) => {
    keys.push(route.request().headers()['idempotency-key']);
    if (keys.length > 1) return route.continue();
    const first = await route.fetch();
    expect(first.ok()).toBe(true);
    return route.abort('connectionreset');
  });

  // The member's tokens: the Bank tab on a desktop, the phone console's Assets.
  await page.goto(isMobile ? '/userbank' : '/userbank?tab=bank');
  // The page's code loads first: on a busy machine that alone can take more than the usual 10 s.
  await expect(page.getByTestId(`balance-${ticker}`)).toHaveText(`100.00 ${ticker}`, { timeout: 30_000 });
  if (isMobile) {
    await page.getByRole('tab', { name: 'Transfers' }).click();
    await page.getByRole('button', { name: 'P2P Transfer' }).click();
  } else {
    await page.getByRole('button', { name: `Transfer ${ticker}` }).click();
  }
  const transfer = page.getByRole('dialog', { name: 'Transfer' });
  await transfer.getByLabel('Recipient nickname').fill(bob.user.nickname);
  if (isMobile) {
    await transfer.getByLabel('Currency').click();
    await page.getByRole('option', { name: `Coin ${ticker} (${ticker})` }).click();
  }
  await transfer.getByLabel('Amount').fill('30');
  const send = transfer.getByRole('button', { name: 'Send' });
  await send.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Network Error' })).toBeVisible();
  // The popup stays open with what was typed: the member presses Send again.
  await expect(transfer).toBeVisible();
  await send.click();
  await expect(
    page.getByRole('alert').filter({ hasText: `Sent 30.00 ${ticker} to ${bob.user.nickname}` }),
  ).toBeVisible();
  await expect(transfer).toBeHidden();

  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(keys[1]).toBe(keys[0]);
  expect(await balanceOf(request, bob.token, currencyId)).toBe('30.00');
  expect(await balanceOf(request, alice.token, currencyId)).toBe('70.00');

  // The ledger's own check, recounted in full: no balance below zero in any currency, and this currency's
  // balances are exactly what was minted (nothing removed, nothing in escrow).
  const res = await request.get('/api/bank/audit?full=true', { headers: { authorization: `Bearer ${admin}` } });
  expect(res.ok()).toBe(true);
  const audit = (await res.json()) as {
    ok: boolean;
    currencies: Array<{
      currencyId: number;
      balances: string;
      issued: string;
      removed: string;
      negativeBalances: number;
    }>;
  };
  expect(audit.ok).toBe(true);
  expect(audit.currencies.filter((c) => c.negativeBalances > 0)).toEqual([]);
  const ours = audit.currencies.find((c) => c.currencyId === currencyId);
  expect(ours && [Number(ours.issued), Number(ours.removed), Number(ours.balances)]).toEqual([100, 0, 100]);
});
