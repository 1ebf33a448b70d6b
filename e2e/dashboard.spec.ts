/**
 * /dashboard is never empty: a member sees their console (balances, recent activity, open
 * orders, each linking to its page), an admin's Admin view the Admin Console. At 1280 px nothing in the
 * header is clipped.
 */
import { expect, type Page, test } from '@playwright/test';
import {
  ADMIN,
  acceptDisclaimerUpFront,
  adminSignIn,
  expectNoSeriousA11yViolations,
  registerMember,
  storeSession,
  uniqueNick,
} from './fixtures.ts';

/** Every link and button of the header lies wholly inside the header and the window. */
async function expectHeaderUnclipped(page: Page) {
  const header = page.locator('header');
  const overflow = await header.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const width = page.viewportSize()?.width ?? 0;
  const items = header.locator('a:visible, button:visible');
  expect(await items.count()).toBeGreaterThan(0);
  for (const item of await items.all()) {
    const box = await item.boundingBox();
    expect(box, (await item.getAttribute('aria-label')) ?? 'a header item').not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
  }
}

test('a member sees balances, recent activity and open orders, with links to their pages', async ({
  page,
  request,
}) => {
  const member = await registerMember(request, uniqueNick('dash'));
  const admin = await adminSignIn(request);
  const mint = await request.post('/api/bank/mint', {
    headers: { authorization: `Bearer ${admin}`, 'idempotency-key': crypto.randomUUID() },
    data: { recipientNickName: member.user.nickname, currencyId: 1, amount: '42.5', note: 'dashboard e2e' },
  });
  expect(mint.ok()).toBe(true);
  await acceptDisclaimerUpFront(page);
  await storeSession(page, member);
  await page.goto('/dashboard');

  await expect(page.getByRole('heading', { name: `Welcome, ${member.user.nickname}` })).toBeVisible();
  const console = page.getByTestId('member-console');
  const balances = console.getByRole('region', { name: 'Balances' });
  await expect(balances.getByText('42.50 SD')).toBeVisible();
  const activity = console.getByRole('region', { name: 'Recent activity' });
  await expect(activity.getByText('+42.50 SD')).toBeVisible();
  const orders = console.getByRole('region', { name: 'Open orders' });
  await expect(orders.getByText('No open orders')).toBeVisible();
  await expect(orders.getByRole('link', { name: 'Open the Quantum Hub' })).toHaveAttribute('href', '/quantumhub');
  await expectHeaderUnclipped(page);
  await expectNoSeriousA11yViolations(page);

  await activity.getByRole('link', { name: 'All activity' }).click();
  await expect(page).toHaveURL(/\/userbank\?tab=logs/);
});

test("the admin's Admin view shows the Admin Console; the header is not clipped", async ({ page }) => {
  await acceptDisclaimerUpFront(page);
  await page.goto('/login');
  await page.getByLabel('Nickname or e-mail').fill(ADMIN.nickname);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('member-console')).toBeVisible();
  await page.getByRole('button', { name: 'Admin' }).click();
  await expect(page.getByTestId('admin-console')).toBeVisible();
  await expect(page.getByTestId('member-console')).toHaveCount(0);
  await expectHeaderUnclipped(page);
});
