/**
 * Buying Credits in a browser through the built-in sandbox, desktop and phone: the admin
 * creates and publishes a package in Checkout Control; a member buys it, is sent to the sandbox page,
 * presses Pay, lands on the thank-you page and finds the Credits and the Checkout Logs row with its
 * event history; Fail credits nothing. The store offers only the providers the server serves, and with
 * none configured says so instead of offering Buy.
 */
import { expect, type Page, test } from '@playwright/test';
import {
  ADMIN,
  adminSignIn,
  expectNoSeriousA11yViolations,
  newPage,
  registerMember,
  storeSession,
  uniqueNick,
} from './fixtures.ts';

/** Expects the member's Credits on the dashboard's balances summary to read `text`. */
async function expectCredits(page: Page, text: string): Promise<void> {
  await page.goto('/dashboard');
  await expect(page.getByTestId('summary-balance-CR')).toHaveText(text);
}

test('admin publishes a package; a member buys it with the sandbox: Pay credits once, Fail nothing', async ({
  browser,
  isMobile,
  request,
}) => {
  test.setTimeout(90_000);
  const adminSession = await (
    await request.post('/api/user/login', { data: { nickOrEmail: ADMIN.nickname, password: ADMIN.password } })
  ).json();
  const name = `Credits ${uniqueNick(isMobile ? 'p' : 'd')}`;

  // The admin creates the package and publishes it.
  const admin = await newPage(browser, isMobile);
  await storeSession(admin, adminSession);
  await admin.goto('/dashboard?view=admin&tab=checkout-control');
  await admin.getByRole('button', { name: 'Create Package' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Create Package' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Description').fill('Seven hundred Credits for testing');
  await dialog.getByLabel('Cost (USD)').fill('4.99');
  await dialog.getByLabel('Credits').fill('700');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(admin.getByText('Package created')).toBeVisible();
  const card = admin.getByRole('listitem', { name });
  await expect(card.getByRole('button', { name: `Publish ${name}` })).toBeEnabled();
  await card.getByRole('button', { name: `Publish ${name}` }).click();
  await expect(card.getByRole('button', { name: `${name} is published` })).toBeDisabled();

  // The member buys it by card; the sandbox stands in for Stripe.
  const nick = uniqueNick('shopper');
  const member = await registerMember(request, nick);
  const page = await newPage(browser, isMobile);
  await storeSession(page, member);
  await page.goto('/checkout');
  const offer = page.getByRole('article', { name });
  await expect(offer.getByText('$4.99')).toBeVisible();
  await offer.getByRole('button', { name: `Buy ${name}` }).click();
  await expect(page.getByText('You will be sent to the payment page in 5 seconds.')).toBeVisible();
  await expect(page).toHaveURL(/\/checkout\/sandbox\/[0-9a-f]{24}$/, { timeout: 10_000 });
  await expect(page.getByText(name)).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/provider\?checkout=/);
  await expect(page.getByRole('heading', { name: 'Thank you for your purchase' })).toBeVisible();
  await expect(page.getByTestId('purchase-state')).toContainText('Completed');
  await expect(page.getByTestId('purchase-state')).toContainText('700.00 CR are in your account');
  await expectNoSeriousA11yViolations(page);
  await expectCredits(page, '700.00 CR');

  // A second purchase, failed: nothing more is credited.
  await page.goto('/checkout');
  await page
    .getByRole('article', { name })
    .getByRole('button', { name: `Buy ${name}` })
    .click();
  await page.getByRole('button', { name: 'Go now' }).click();
  await page.getByRole('button', { name: 'Fail' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expectCredits(page, '700.00 CR');

  // Checkout Logs (desktop: the User Logs sub-tab; phone: Account > Checkout Logs) show both purchases.
  {
    if (isMobile) {
      await page.goto('/userbank');
      await page.getByRole('tab', { name: 'Account' }).click();
      await page.getByRole('button', { name: 'Checkout Logs' }).click();
    } else {
      await page.goto('/userbank?tab=logs&log=checkout');
    }
    const rows = page.getByTestId('checkout-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'Completed' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'Cancelled' })).toHaveCount(1);
    await rows
      .filter({ hasText: 'Completed' })
      .getByRole('button', { name: `Event History of ${name}` })
      .click();
    await expect(page.getByRole('dialog', { name: 'Event History' }).getByText('sandbox.pay')).toBeVisible();
  }

  // The admin finds them in Checkout Logs.
  await admin.goto('/dashboard?view=admin&tab=checkout-logs');
  const logs = admin.getByRole('region', { name: 'Checkout Logs' });
  await logs.getByLabel('Nickname').fill(nick);
  await logs.getByRole('button', { name: 'Search' }).click();
  await expect(logs.getByRole('row')).toHaveCount(3);
});

test('with no payment provider configured the store says so and offers no Buy; with one, only that one', async ({
  browser,
  isMobile,
  request,
}, testInfo) => {
  const token = await adminSignIn(request);
  const name = `Credits ${uniqueNick(isMobile ? 'np' : 'nd')}`;
  const created = await request.post('/api/checkout/packages/create', {
    headers: { authorization: `Bearer ${token}` },
    data: { name, description: 'Credits nobody can pay for', cost: '2.99', amount: '300' },
  });
  expect(created.ok()).toBe(true);
  const { package: pkg } = (await created.json()) as { package: { _id: string } };
  const published = await request.post('/api/checkout/packages/publish', {
    headers: { authorization: `Bearer ${token}` },
    data: { objectId: pkg._id },
  });
  expect(published.ok()).toBe(true);

  // The e2e server runs the sandbox; the store's answer is rewritten as a server with no provider keys
  // in production (or with one provider) would give it.
  let providers: number[] = [];
  const page = await newPage(browser, isMobile);
  await page.route('**/api/checkout/packages/fetch', async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...(await res.json()), providers } });
  });
  await storeSession(page, await registerMember(request, uniqueNick('noprov')));
  await page.goto('/checkout');
  const offer = page.getByRole('article', { name });
  await expect(offer.getByText('$2.99')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'No payment provider is configured' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Buy / })).toHaveCount(0);
  await expect(page.getByText('Pay with')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: testInfo.outputPath('no-provider.png'), fullPage: true });

  providers = [1];
  await page.reload();
  await expect(offer.getByRole('button', { name: `Buy ${name}` })).toBeVisible();
  await expect(page.getByText('No payment provider is configured')).toHaveCount(0);
  const choice = page.getByRole('radiogroup', { name: 'Pay with' });
  await expect(choice.getByRole('radio')).toHaveCount(1);
  await expect(choice.getByRole('radio', { name: 'Crypto' })).toBeChecked();
});
