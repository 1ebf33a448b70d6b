/**
 * The Admin Console's user list and user stats on a community past COUNT_CAP: 12,000
 * members bulk-inserted into the browser tests' database, then User Logs shows "10,000+", Next leads to
 * the next page, a nickname search finds member123, and User Control shows the kept stats, at desktop and
 * phone size.
 */
import { expect, test } from '@playwright/test';
import { bulkMembers } from './bulk.ts';
import { expectNoSeriousA11yViolations, newPage, signIn } from './fixtures.ts';

const MEMBERS = 12_000;

/** member1 … member12000 in one INSERT … SELECT (once per run: the second project finds them there). */
test.beforeAll(async () => {
  await bulkMembers({ prefix: 'member', idPrefix: 'd', count: MEMBERS, newest: 'first' });
});

test('User Logs pages through 10,000+ members and finds one by nickname; User Control shows the kept stats', async ({
  browser,
  isMobile,
}, info) => {
  const admin = await newPage(browser, isMobile);
  await signIn(admin);

  await admin.goto('/dashboard?view=admin&tab=user-logs');
  const users = admin.getByRole('region', { name: 'User Logs' });
  await expect(users.getByText('10,000+ in all').first()).toBeVisible();
  await expect(users.getByText(/Page 1 of [\d,]+\+/).first()).toBeVisible();
  const firstRow = ((await users.getByRole('row').nth(1).textContent()) ?? '').trim();
  await admin.screenshot({ path: info.outputPath('user-logs-page-1.png'), fullPage: true });
  // The table scrolls sideways on a phone: its scroll area takes the keyboard's focus (axe).
  await expectNoSeriousA11yViolations(admin);

  await users.getByRole('button', { name: 'Next' }).first().click();
  await expect(users.getByText(/Page 2 of [\d,]+\+/).first()).toBeVisible();
  await expect(users.getByRole('row').nth(1)).not.toHaveText(firstRow);
  // The count goes COUNT_CAP past the page's first row, so the bound moves on with the page.
  await expect(users.getByText('10,010+ in all').first()).toBeVisible();

  // member123 and member1230 … member1239.
  await users.getByLabel('Nickname').fill('member123');
  await users.getByRole('button', { name: 'Search' }).click();
  await expect(users.getByText('11 in all').first()).toBeVisible();
  await expect(users.getByRole('cell', { name: 'member123', exact: true })).toBeVisible();
  await expect(users.getByText(/Page 1 of 2\b/).first()).toBeVisible();
  await admin.screenshot({ path: info.outputPath('user-logs-search.png'), fullPage: true });

  // The stats card: the kept figures, as the API answers them, with thousands separators.
  const token = await admin.evaluate(() => JSON.parse(localStorage.getItem('token') ?? '""') as string);
  const res = await admin.request.post('/api/user/getUserStats', {
    headers: { authorization: `Bearer ${token}` },
    data: {},
  });
  expect(res.ok()).toBe(true);
  const { stats } = (await res.json()) as { stats: { total: number; verifiedEmailAccounts: number } };
  expect(stats.total).toBeGreaterThan(MEMBERS);

  await admin.goto('/dashboard?view=admin&tab=user-control');
  const card = admin.getByTestId('user-stats');
  await expect(card).toBeVisible();
  await expect(card.getByText(stats.total.toLocaleString('en-GB'), { exact: true })).toBeVisible();
  await expect(card.getByText(stats.verifiedEmailAccounts.toLocaleString('en-GB'), { exact: true })).toBeVisible();
  await admin.screenshot({ path: info.outputPath('user-control-stats.png'), fullPage: true });
  await expectNoSeriousA11yViolations(admin);
});
