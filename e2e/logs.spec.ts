/**
 * The transaction logs keep their filters and page in the URL (DESIGN §1): the member's User Logs and
 * the admin's Tnx Logs. A filter applies on Search or Enter, lands in the URL, survives a reload, and
 * Back/Forward move between filter states; switching the admin tab drops the log's params.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { ADMIN, acceptDisclaimerUpFront, PASSWORD, signIn as signInByForm, uniqueNick } from './fixtures.ts';

async function register(request: APIRequestContext, nick: string): Promise<string> {
  const res = await request.post('/api/user/register', {
    data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

async function login(request: APIRequestContext, nickOrEmail: string, password: string): Promise<string> {
  const res = await request.post('/api/user/login', { data: { nickOrEmail, password } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

async function post(request: APIRequestContext, token: string, path: string, data: unknown): Promise<void> {
  const res = await request.post(path, {
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
    data,
  });
  expect(res.ok(), await res.text()).toBe(true);
}

async function signIn(page: Page, nick: string, password: string): Promise<void> {
  await acceptDisclaimerUpFront(page);
  await signInByForm(page, nick, password);
  await expect(page.getByRole('heading', { name: `Welcome, ${nick}` })).toBeVisible();
}

const searchOf = (page: Page) => new URL(page.url()).searchParams;

test('User Logs: a filter lives in the URL, survives a reload, and Back/Forward step through it', async ({
  page,
  request,
  isMobile,
}) => {
  const alice = uniqueNick('logal');
  const bob = uniqueNick('logbo');
  const aliceToken = await register(request, alice);
  await register(request, bob);
  const admin = await login(request, ADMIN.nickname, ADMIN.password);
  await post(request, admin, '/api/bank/mint', {
    recipientNickName: alice,
    currencyId: 1,
    amount: '100',
    note: 'logs',
  });
  await post(request, admin, '/api/bank/mint', { recipientNickName: alice, currencyId: 2, amount: '50', note: 'logs' });
  await post(request, aliceToken, '/api/bank/p2pTransfer', {
    recipientNickName: bob,
    currencyId: 1,
    amount: '10',
    note: 'for the logs',
  });

  await signIn(page, alice, PASSWORD);
  if (isMobile) {
    // The phone console: tapping a token opens its logs, filtered to that currency, in the URL too.
    await page.goto('/userbank');
    await page.getByRole('button', { name: 'Stardust' }).click();
    await expect(page).toHaveURL(/[?&]tab=logs/);
    expect(searchOf(page).get('txCurrency')).toBe('1');
  } else {
    await page.goto('/userbank');
    await page.getByRole('tab', { name: 'User Logs' }).click();
    await expect(page).toHaveURL(/[?&]tab=logs/);
  }
  // Table rows on a desktop, one card each on a phone.
  const rows = isMobile
    ? page.getByRole('list', { name: 'Transaction log' }).getByRole('listitem')
    : page.getByRole('table', { name: 'Transaction log' }).locator('tbody tr');
  await expect(rows.filter({ hasText: 'Mint' }).first()).toBeVisible();
  const unfiltered = isMobile ? 3 : 4; // SD mint, (SN mint,) transfer, tax
  await expect(rows).toHaveCount(unfiltered);

  // Pick a category and type the other party: nothing moves until Enter submits the form.
  const filters = page.getByTestId('txlog-filters');
  await filters.getByLabel('Category', { exact: true }).click();
  await page.getByRole('option', { name: 'Transfer', exact: true }).click();
  const party = filters.getByLabel('Other party');
  await party.fill(bob);
  await expect(rows).toHaveCount(unfiltered);
  expect(searchOf(page).get('txNickname')).toBeNull();
  await party.press('Enter');

  await expect(page).toHaveURL(new RegExp(`[?&]txNickname=${bob}(&|$)`));
  expect(searchOf(page).get('txCategory')).toBe('3');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(bob);
  await expect(rows.first()).toContainText('−9.90 SD');

  // A reload (or the shared link) shows the same rows and the same filter values.
  const filteredUrl = page.url();
  await page.reload();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(bob);
  await expect(rows.first()).toContainText('Transfer');
  await expect(filters.getByLabel('Other party')).toHaveValue(bob);
  await expect(filters.getByLabel('Category', { exact: true })).toHaveValue('Transfer');
  expect(page.url()).toBe(filteredUrl);

  // Back returns to the unfiltered log (inputs included); Forward to the filtered one.
  await page.goBack();
  await expect(rows).toHaveCount(unfiltered);
  await expect(filters.getByLabel('Other party')).toHaveValue('');
  await expect(filters.getByLabel('Category', { exact: true })).toHaveValue('');
  expect(searchOf(page).get('txNickname')).toBeNull();
  await page.goForward();
  await expect(rows).toHaveCount(1);
  await expect(filters.getByLabel('Other party')).toHaveValue(bob);

  // A filter nothing matches shows SPEC's empty message, and that too is in the URL.
  await filters.getByLabel('Amount above').fill('1000');
  await filters.getByLabel('Amount above').press('Enter');
  await expect(page.getByText('No Transactions', { exact: true })).toBeVisible();
  expect(searchOf(page).get('txAbove')).toBe('1000');
  await page.reload();
  await expect(page.getByText('No Transactions', { exact: true })).toBeVisible();
  await expect(filters.getByLabel('Amount above')).toHaveValue('1000');
});

test('Tnx Logs: nickname filter and page 2 live in the URL; a tab switch drops them', async ({ page, request }) => {
  const carol = uniqueNick('logca');
  await register(request, carol);
  const admin = await login(request, ADMIN.nickname, ADMIN.password);
  for (let i = 1; i <= 12; i++) {
    await post(request, admin, '/api/bank/mint', {
      recipientNickName: carol,
      currencyId: 1,
      amount: String(i),
      note: `logs mint ${i}`,
    });
  }

  await signIn(page, ADMIN.nickname, ADMIN.password);
  await page.goto('/dashboard?view=admin&tab=tnx');
  const rows = page.getByTestId('tnx-row');
  await expect(rows.first()).toBeVisible();

  // Typing alone does not touch the URL; Enter applies the filter on page 1.
  const nickname = page.getByTestId('tnx-nickname');
  await nickname.fill(carol);
  expect(searchOf(page).get('txNickname')).toBeNull();
  await nickname.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]txNickname=${carol}(&|$)`));
  const status = page.getByText(/^Page \d+ of \d+ · \d+ in all$/).first();
  await expect(status).toHaveText('Page 1 of 2 · 12 in all');
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).toContainText(carol);

  // Next: page 2 in the URL, the last two mints on screen (newest first: 2 SD and 1 SD).
  await page.getByRole('button', { name: 'Next' }).first().click();
  await expect(page).toHaveURL(/[?&]txPage=2(&|$)/);
  await expect(status).toHaveText('Page 2 of 2 · 12 in all');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('logs mint 2');
  await expect(rows.nth(1)).toContainText('logs mint 1');

  // A reload shows the same page, rows and filter.
  await page.reload();
  await expect(status).toHaveText('Page 2 of 2 · 12 in all');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('logs mint 1');
  await expect(page.getByTestId('tnx-nickname')).toHaveValue(carol);
  expect(searchOf(page).get('view')).toBe('admin');
  expect(searchOf(page).get('tab')).toBe('tnx');

  // The record limit applies at once and goes back to page 1.
  await page.getByTestId('tnx-limit').selectOption('20');
  await expect(page).toHaveURL(/[?&]txLimit=20(&|$)/);
  expect(searchOf(page).get('txPage')).toBeNull();
  await expect(status).toHaveText('Page 1 of 1 · 12 in all');
  await expect(rows).toHaveCount(12);
  await expect(page.getByTestId('tnx-nickname')).toHaveValue(carol);

  // Back to page 2 of 10-row pages.
  await page.goBack();
  await expect(status).toHaveText('Page 2 of 2 · 12 in all');
  await expect(page.getByTestId('tnx-limit')).toHaveValue('10');

  // Another tab does not carry the log's params, and coming back starts afresh.
  await page.getByTestId('admin-tab-currency').click();
  await expect(page).toHaveURL(/[?&]tab=currency(&|$)/);
  expect([...searchOf(page).keys()].filter((k) => k.startsWith('tx'))).toEqual([]);
  await page.getByTestId('admin-tab-tnx').click();
  await expect(page.getByTestId('tnx-nickname')).toHaveValue('');
  await expect(rows.first()).toBeVisible();
  expect([...searchOf(page).keys()].filter((k) => k.startsWith('tx'))).toEqual([]);
});
