/**
 * A member's first hour with money, at the desktop and phone sizes: the Transfer popup shows the balance
 * with a Max and says a wrong amount in words before anything is sent; a very long balance is never
 * covered by its row's buttons; My Tokens lists every holding (Credits too), with only the actions each
 * currency allows; toasts stay clear of the header's buttons and of an open dialog, three at most.
 * The money moved ends with the ledger's audit.
 */
import { type APIRequestContext, expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { acceptDisclaimerUpFront, adminSignIn, apiPost, registerMember, storeSession, uniqueNick } from './fixtures.ts';

test.beforeEach(async ({ page }) => acceptDisclaimerUpFront(page));

/** Opens the bank's Currency tab and waits for My Tokens (a cold bundle can take a while to load). */
async function openBank(page: Page): Promise<void> {
  await page.goto('/userbank?tab=bank');
  await expect(page.getByRole('heading', { name: 'My Tokens' })).toBeVisible({ timeout: 60_000 });
}

type Box = { x: number; y: number; width: number; height: number };

/** True when the two boxes share any area. */
function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(l: Locator): Promise<Box> {
  const box = await l.boundingBox();
  if (!box) throw new Error('not on screen');
  return box;
}

async function shot(page: Page, info: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: info.outputPath(`${name}-${info.project.name}.png`) });
}

/** A member of their own, signed in on `page`; answers their nickname. */
async function member(page: Page, request: APIRequestContext, prefix: string) {
  const m = await registerMember(request, uniqueNick(prefix));
  await storeSession(page, m);
  return m;
}

async function mint(request: APIRequestContext, admin: string, nickname: string, currencyId: number, amount: string) {
  await apiPost(request, admin, '/api/bank/mint', {
    recipientNickName: nickname,
    currencyId,
    amount,
    note: 'first hour',
  });
}

/** GET /api/bank/audit (admin): the ledger's conservation holds, with no negative balance. */
async function expectAuditOk(request: APIRequestContext, admin: string): Promise<void> {
  const res = await request.get('/api/bank/audit', { headers: { authorization: `Bearer ${admin}` } });
  expect(res.ok()).toBe(true);
  const audit = (await res.json()) as { ok: boolean; currencies: Array<{ negativeBalances: number }> };
  expect(audit.ok).toBe(true);
  expect(audit.currencies.filter((c) => c.negativeBalances > 0)).toEqual([]);
}

// Each test signs in, loads the bank and moves money through the browser: more than one default minute on a busy machine.
test.describe.configure({ timeout: 120_000 });

test('the Transfer popup shows Available and Max and refuses a wrong amount in words before sending', async ({
  page,
  request,
}, info) => {
  const admin = await adminSignIn(request);
  const alice = await member(page, request, 'xfa');
  const bob = await registerMember(request, uniqueNick('xfb'));
  await mint(request, admin, alice.user.nickname, 1, '900');

  await openBank(page);
  await page.getByRole('button', { name: 'Transfer SD' }).click();
  const dialog = page.getByRole('dialog', { name: 'Transfer' });
  await expect(dialog.getByText('Available: 900.00 SD')).toBeVisible();
  await dialog.getByRole('textbox', { name: /Recipient nickname/ }).fill(bob.user.nickname);
  const amount = dialog.getByRole('textbox', { name: /Amount/ });
  const send = dialog.getByRole('button', { name: 'Send' });

  await amount.fill('999999999');
  await expect(dialog.getByText('More than you have: your balance is 900.00 SD')).toBeVisible();
  await expect(dialog.getByText(/Transfer tax/)).toHaveCount(0);
  await expect(send).toBeDisabled();

  await amount.fill('12.345');
  await expect(dialog.getByText('Amount can have at most 2 decimals')).toBeVisible();
  await expect(dialog.getByText(/contains an invalid value|"amount"/)).toHaveCount(0);
  await expect(send).toBeDisabled();
  await shot(page, info, 'transfer-refused');

  await dialog.getByRole('button', { name: /^Max/ }).click();
  await expect(amount).toHaveValue('900.00');
  await expect(dialog.getByText('The recipient receives 891.00 SD', { exact: false })).toBeVisible();
  await expect(send).toBeEnabled();
  await shot(page, info, 'transfer-max');
  await send.click();
  await expect(page.getByText(`Sent 891.00 SD to ${bob.user.nickname} (tax 9.00 SD)`)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('token-SD')).toHaveCount(0);
  await expectAuditOk(request, admin);
});

test('My Tokens lists every holding with only the actions its currency allows, and no button covers a long balance', async ({
  page,
  request,
}, info) => {
  const admin = await adminSignIn(request);
  const ticker = `WD${uniqueNick('').slice(-4).toUpperCase()}`;
  const { currency } = await apiPost<{ currency: { currencyId: number } }>(request, admin, '/api/bank/createCurrency', {
    ticker,
    name: `Wide ${ticker}`,
    precision: 2,
    canDeposit: false,
    canWithdraw: true,
    canTransfer: true,
    canMint: true,
    canBurn: true,
  });
  const m = await member(page, request, 'tok');
  await mint(request, admin, m.user.nickname, currency.currencyId, '999999999.99');
  await mint(request, admin, m.user.nickname, 3, '250');

  await openBank(page);
  // Credits cannot move: listed with its balance, without Transfer or Withdraw.
  const credits = page.getByTestId('token-CR');
  await expect(page.getByTestId('balance-CR')).toHaveText('250.00 CR');
  await expect(credits.getByRole('button', { name: /Transfer|Withdraw/ })).toHaveCount(0);

  const balance = page.getByTestId(`balance-${ticker}`);
  await expect(balance).toHaveText(`999,999,999.99 ${ticker}`);
  const row = page.getByTestId(`token-${ticker}`);
  for (const name of [`Withdraw ${ticker}`, `Transfer ${ticker}`]) {
    const button = row.getByRole('button', { name });
    await expect(button).toBeVisible();
    expect(intersects(await boxOf(balance), await boxOf(button)), name).toBe(false);
  }
  // Not cut: the whole number fits its box, and the box lies inside its row.
  const fits = await balance.evaluate((el) => el.scrollWidth <= el.clientWidth);
  expect(fits).toBe(true);
  const rowBox = await boxOf(row);
  const numberBox = await boxOf(balance);
  expect(numberBox.x + numberBox.width).toBeLessThanOrEqual(rowBox.x + rowBox.width);
  await row.scrollIntoViewIfNeeded();
  await shot(page, info, 'long-balance');
  await expectAuditOk(request, admin);
});

test('toasts stay clear of the header buttons and of an open dialog, and show three at most', async ({
  page,
  request,
}, info) => {
  const admin = await adminSignIn(request);
  const m = await member(page, request, 'toast');
  await mint(request, admin, m.user.nickname, 1, '5');
  await openBank(page);
  await expect(page.getByTestId('balance-SD')).toBeVisible();

  // Four toasts in a row: each copy of My Info's referral link shows one.
  const toasts = page.locator('.mantine-Notification-root');
  const copy = async () => {
    if (info.project.name === 'phone') {
      await page.getByRole('tab', { name: 'Account' }).click();
      await page.getByRole('button', { name: 'Profile' }).click();
    } else await page.getByRole('tab', { name: 'Profile' }).click();
    const button = page.getByRole('button', { name: 'Copy referral link' });
    for (let i = 0; i < 4; i++) await button.click();
  };
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await copy();
  await expect(toasts.first()).toBeVisible();
  const most = info.project.name === 'phone' ? 1 : 3;
  await expect(toasts).toHaveCount(most);

  // Clear of the header's controls.
  const header = page.locator('header');
  const headerControls = header.locator('a:visible, button:visible');
  const count = await headerControls.count();
  expect(count).toBeGreaterThan(0);
  for (const toast of await toasts.all()) {
    const t = await boxOf(toast);
    for (let i = 0; i < count; i++) {
      const control = headerControls.nth(i);
      expect(intersects(t, await boxOf(control)), (await control.getAttribute('aria-label')) ?? `control ${i}`).toBe(
        false,
      );
    }
  }
  await shot(page, info, 'toasts-header');

  // With a dialog open, a toast (the Transfer popup's own Max then a refusal) keeps off its title and close button.
  await openBank(page);
  await page.getByRole('button', { name: 'Transfer SD' }).click();
  const dialog = page.getByRole('dialog', { name: 'Transfer' });
  await dialog.getByRole('textbox', { name: /Recipient nickname/ }).fill('nobodyhere');
  await dialog.getByRole('textbox', { name: /Amount/ }).fill('1');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Recipient not found')).toBeVisible();
  const title = dialog.locator('.mantine-Modal-title');
  const close = dialog.locator('.mantine-Modal-close');
  for (const toast of await toasts.all()) {
    const t = await boxOf(toast);
    expect(intersects(t, await boxOf(title)), 'dialog title').toBe(false);
    expect(intersects(t, await boxOf(close)), 'dialog close button').toBe(false);
    expect(intersects(t, await boxOf(dialog.getByRole('button', { name: 'Send' }))), 'Send').toBe(false);
  }
  await shot(page, info, 'toasts-dialog');
  await expectAuditOk(request, admin);
});
