/**
 * The Admin Console on a community of 200,000 bulk-inserted members, at desktop and phone size: a search of
 * an exact nickname shows that member first (the oldest of its 1,111 matches, so newest first put it on
 * the last page), with the count's thousands separators.
 */
import { expect, test } from '@playwright/test';
import { bulkMembers } from './bulk.ts';
import { newPage, signIn } from './fixtures.ts';

const MEMBERS = 200_000;

test.beforeAll(async () => {
  // The trigram indexes and the kept user stats make it the slow part of the file.
  test.setTimeout(480_000);
  // scale1 (the oldest) … scale200000 (the newest).
  await bulkMembers({ prefix: 'scale', idPrefix: 'c', count: MEMBERS, newest: 'last' });
});

test('User Logs ranks the exact nickname first among 1,111 matches of 200,000 members', async ({
  browser,
  isMobile,
}, info) => {
  test.setTimeout(120_000);
  const admin = await newPage(browser, isMobile);
  await signIn(admin);
  await admin.goto('/dashboard?view=admin&tab=user-logs');
  const users = admin.getByRole('region', { name: 'User Logs' });
  // scale150, scale1500…1509, scale15000…15099, scale150000…150999: all start with it.
  await users.getByLabel('Nickname').fill('SCALE150');
  await users.getByRole('button', { name: 'Search' }).click();
  await expect(users.getByText('Page 1 of 112 · 1,111 in all').first()).toBeVisible();
  const firstRow = users.getByRole('row').nth(1);
  await expect(firstRow.getByRole('cell', { name: 'scale150', exact: true })).toBeVisible();
  // Then the other prefix matches, closest first.
  await expect(users.getByRole('row').nth(2).getByRole('cell', { name: 'scale1500', exact: true })).toBeVisible();
  await admin.screenshot({ path: info.outputPath('user-logs-exact-first.png'), fullPage: true });
});
