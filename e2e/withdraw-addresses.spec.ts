/**
 * Withdrawal addresses and the security hold in a browser (DESIGN §11.2): a member saves an address in
 * Settings, opens the mailed link (the e2e server's hold is zero, so it is usable at once), turns on
 * "Allowed addresses only", and withdraws to the saved address by picking it in the Withdraw popup; a
 * withdrawal to any other address is refused with the server's message. After an e-mail change the popup
 * says until when withdrawals are paused before anything is typed. An admin sees the member's addresses
 * in User Control. Desktop and phone; screenshots in the results.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  ADMIN,
  acceptDisclaimerUpFront,
  adminSignIn,
  apiPost,
  expectNoSeriousA11yViolations,
  mailedLink,
  PASSWORD,
  registerMember,
  signIn,
  uniqueNick,
} from './fixtures.ts';

const SAVED = '0xc01d0000000000000000000000000000000000a1';
const UNKNOWN = '0x0e4e0000000000000000000000000000000000b2';

test.beforeEach(async ({ page }) => acceptDisclaimerUpFront(page));
// Each test signs in and walks several pages and dialogs: three times the default budget on a shared machine.
test.slow();

/** A currency that allows withdrawals (no tax), and 100 of it minted to `nick`: its ticker and name. */
async function withdrawableCurrency(
  request: APIRequestContext,
  nick: string,
): Promise<{ ticker: string; name: string }> {
  const admin = await adminSignIn(request);
  const ticker = `A${uniqueNick('').slice(-5).toUpperCase()}`;
  const name = `Address Coin ${ticker}`;
  const { currency } = await apiPost<{ currency: { currencyId: number } }>(request, admin, '/api/bank/createCurrency', {
    ticker,
    name,
    precision: 2,
    canDeposit: false,
    canWithdraw: true,
    canTransfer: true,
    canMint: true,
    canBurn: true,
  });
  await apiPost(request, admin, '/api/bank/mint', {
    recipientNickName: nick,
    currencyId: currency.currencyId,
    amount: '100',
    note: 'for withdrawals',
  });
  return { ticker, name };
}

/** Picks `option` in the Mantine Select labelled `label` inside `scope`. */
async function pick(page: Page, scope: ReturnType<Page['getByRole']>, label: RegExp, option: string | RegExp) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

test('save an address, confirm it by mail, allow only it, and withdraw to it', async ({ page, request }, info) => {
  const nick = uniqueNick('wad');
  const email = `${nick}@example.test`;
  const { token } = await registerMember(request, nick);
  const { ticker, name } = await withdrawableCurrency(request, nick);
  await signIn(page, nick, PASSWORD);

  await page.goto('/userconfig#withdrawal-addresses');
  const card = page.getByRole('region', { name: 'Withdrawal addresses' });
  await expect(card.getByTestId('withdraw-addresses-empty')).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('addresses-empty.png'), fullPage: true });

  await card.getByRole('button', { name: 'Add address' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add withdrawal address' });
  await pick(page, dialog, /Currency/, `${name} (${ticker})`);
  await dialog.getByRole('textbox', { name: /Wallet address/ }).fill(SAVED);
  await dialog.getByRole('textbox', { name: /Label/ }).fill('Cold wallet');
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: info.outputPath('addresses-add.png') });
  await dialog.getByRole('button', { name: 'Add address' }).click();
  const sent = page.getByRole('dialog', { name: 'Check your e-mail' });
  await expect(sent).toContainText('Open the link in that e-mail to confirm the address');
  await page.screenshot({ path: info.outputPath('addresses-check-mail.png') });
  await sent.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  const row = card.getByRole('listitem', { name: 'Cold wallet' });
  await expect(row).toContainText('Confirm by e-mail');
  await expect(row).toContainText(SAVED);
  await expect(row).toContainText(ticker);

  // The mailed link, opened as the member would.
  await page.goto(await mailedLink(email, 'withdrawaddress'));
  await expect(page.getByRole('status').filter({ hasText: 'Address confirmed' })).toBeVisible();
  await expect(page.getByTestId('usable-from')).toHaveText('You can withdraw to it now.');
  await page.screenshot({ path: info.outputPath('address-confirmed.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('link', { name: 'Go to my withdrawal addresses' }).click();
  await expect(page).toHaveURL(/\/userconfig#withdrawal-addresses$/);
  await expect(card.getByRole('listitem', { name: 'Cold wallet' })).toContainText('Active');

  const toggle = card.getByRole('switch', { name: /Allowed addresses only/ });
  await expect(toggle).not.toBeChecked();
  // From the keyboard (Space), as a keyboard user would.
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(toggle).toBeChecked();
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('addresses-allow-list-on.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page);

  await page.goto('/userbank?tab=bank');
  await expect(page.getByTestId(`balance-${ticker}`)).toHaveText(`100.00 ${ticker}`);
  await page.getByRole('button', { name: `Withdraw ${ticker}` }).click();
  const popup = page.getByRole('dialog', { name: 'Withdraw' });
  await expect(popup.getByTestId('allow-list-hint')).toBeVisible();
  await expect(popup.getByRole('link', { name: 'Add an address' })).toBeVisible();
  // Only a saved address: no field to type one.
  await expect(popup.getByRole('textbox', { name: /^Wallet address/ })).toHaveCount(0);
  await popup.getByLabel('Amount').fill('10');
  await expect(popup.getByRole('button', { name: 'Withdraw' })).toBeDisabled();
  await pick(page, popup, /Saved address/, /Cold wallet/);
  await expect(popup.getByText(SAVED)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: info.outputPath('withdraw-saved-address.png') });
  await popup.getByRole('button', { name: 'Withdraw' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId(`balance-${ticker}`)).toHaveText(`90.00 ${ticker}`);

  // Any other address is refused, with the server's words.
  const refused = await request.post('/api/bank/withdraw', {
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
    data: { currencyId: await currencyIdOf(request, ticker), amount: '5', walletAddress: UNKNOWN },
  });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { message: string }).message).toBe(
    'This address is not in your withdrawal addresses',
  );
  await page.reload();
  await expect(page.getByTestId(`balance-${ticker}`)).toHaveText(`90.00 ${ticker}`);

  // An admin sees the member's addresses and switch in User Control, read-only.
  await signIn(page, ADMIN.nickname, ADMIN.password);
  await page.goto('/dashboard?view=admin&tab=user-control');
  const panel = page.getByRole('region', { name: 'Withdrawal addresses' });
  await panel.getByRole('textbox', { name: 'Nickname' }).fill(nick);
  await panel.getByRole('button', { name: 'Show addresses' }).click();
  await expect(panel.getByTestId('user-allow-list')).toContainText('On');
  const adminRow = panel.getByRole('listitem', { name: 'Cold wallet' });
  await expect(adminRow).toContainText(SAVED);
  await expect(adminRow).toContainText('Active');
  await expect(adminRow.getByRole('button')).toHaveCount(0);
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('admin-withdraw-addresses.png'), fullPage: true });
});

/** The id of the currency `ticker` (GET /api/bank/currencies). */
async function currencyIdOf(request: APIRequestContext, ticker: string): Promise<number> {
  const res = await request.get('/api/bank/currencies');
  const { currencies } = (await res.json()) as { currencies: Array<{ currencyId: number; ticker: string }> };
  const found = currencies.find((c) => c.ticker === ticker);
  expect(found, ticker).toBeDefined();
  return (found as { currencyId: number }).currencyId;
}

test('after an e-mail change the Withdraw popup says withdrawals are paused', async ({ page, request }, info) => {
  const nick = uniqueNick('wah');
  const { token } = await registerMember(request, nick);
  const { ticker } = await withdrawableCurrency(request, nick);
  await apiPost(request, token, '/api/user/updateProfile', {
    email: `${nick}.new@example.test`,
    currentPassword: PASSWORD,
  });
  await signIn(page, nick, PASSWORD);

  await page.goto('/userbank?tab=bank');
  await page.getByRole('button', { name: `Withdraw ${ticker}` }).click();
  const popup = page.getByRole('dialog', { name: 'Withdraw' });
  await expect(popup.getByRole('alert').filter({ hasText: 'Withdrawals paused' })).toContainText(
    /Withdrawals are paused until .+ after a change to your account's security/,
  );
  await expect(popup.getByRole('button', { name: 'Withdraw' })).toBeDisabled();
  await page.screenshot({ path: info.outputPath('withdraw-paused.png') });
  await expectNoSeriousA11yViolations(page);
});
