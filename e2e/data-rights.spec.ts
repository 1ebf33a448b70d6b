/**
 * Settings → Your data in a browser (DESIGN §11.6): a member downloads their data as a JSON file and reads
 * their own transfer in it; deleting the account is refused while it holds a balance (the dialog says what
 * to do), then, with the balance sent away, it is deleted, the member is signed out and cannot sign in.
 * The admin deletes another member's empty account from User Control. Desktop and phone; screenshots in
 * the results.
 */
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import {
  adminSignIn,
  apiPost,
  createCurrency,
  expectNoSeriousA11yViolations,
  newPage,
  PASSWORD,
  registerMember,
  signIn,
  uniqueNick,
} from './fixtures.ts';

async function openDeleteDialog(page: Page) {
  await page.getByRole('button', { name: 'Delete my account' }).click();
  return page.getByRole('dialog', { name: 'Delete my account' });
}

test('download my data, then delete my account once it holds nothing', async ({ browser, isMobile, request }, info) => {
  test.slow();
  const adminToken = await adminSignIn(request);
  const coin = await createCurrency(request, adminToken, { prefix: 'DR' });
  const nick = uniqueNick('dr');
  const friend = uniqueNick('drf');
  const member = await registerMember(request, nick);
  await registerMember(request, friend);
  await apiPost(request, adminToken, '/api/bank/mint', {
    recipientNickName: nick,
    currencyId: coin.currencyId,
    amount: '4.5',
    note: 'welcome',
  });

  const page = await newPage(browser, isMobile);
  await signIn(page, nick, PASSWORD);
  await page.goto('/userconfig');
  const card = page.locator('#your-data');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('your-data.png'), fullPage: false });
  await expectNoSeriousA11yViolations(page);

  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Download my data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^starlight-account-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await readFile(await file.path(), 'utf8')) as {
    profile: { nickname: string };
    balances: { ticker: string; amount: string }[];
    history: { note: string; amount: string }[];
  };
  expect(data.profile.nickname).toBe(nick);
  expect(data.balances).toEqual([expect.objectContaining({ ticker: coin.ticker, amount: '4.500000000' })]);
  expect(data.history).toEqual([expect.objectContaining({ note: 'welcome', amount: '4.500000000' })]);

  // Holding a balance: refused, with what to do, and the member stays signed in.
  let dialog = await openDeleteDialog(page);
  const submit = dialog.getByRole('button', { name: 'Delete my account' });
  await expect(submit).toBeDisabled();
  await dialog.getByLabel(/Type your nickname/).fill(nick);
  await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await submit.click();
  await expect(dialog.getByRole('alert')).toContainText(`transfer or withdraw your balance (4.5 ${coin.ticker})`);
  await page.screenshot({ path: info.outputPath('delete-refused.png'), animations: 'disabled' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  await apiPost(request, member.token, '/api/bank/p2pTransfer', {
    recipientNickName: friend,
    currencyId: coin.currencyId,
    amount: '4.5',
  });
  dialog = await openDeleteDialog(page);
  await dialog.getByLabel(/Type your nickname/).fill(nick);
  await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your account has been deleted' })).toBeVisible();
  await expect(page).not.toHaveURL(/\/userconfig/);
  const again = await request.post('/api/user/login', { data: { nickOrEmail: nick, password: PASSWORD } });
  expect(again.ok()).toBe(false);
  await page.context().close();
});

test('the admin deletes an empty account from User Control', async ({ browser, isMobile, request }, info) => {
  test.slow();
  const nick = uniqueNick('dra');
  const member = await registerMember(request, nick);
  const page = await newPage(browser, isMobile);
  await signIn(page);
  await page.goto('/dashboard?view=admin&tab=user-control');
  const card = page.getByRole('region', { name: 'Member sessions' });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await card.getByLabel('Member nickname').fill(nick);
  await card.getByRole('button', { name: 'Look up' }).click();
  await card.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete account' });
  await expect(dialog).toContainText(`Delete the account of ${nick}?`);
  await page.screenshot({ path: info.outputPath('admin-delete-confirm.png'), animations: 'disabled' });
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `${nick}'s account has been deleted` })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const me = await request.get('/api/user/me', { headers: { authorization: `Bearer ${member.token}` } });
  expect(me.status()).toBe(401);
  await page.context().close();
});
