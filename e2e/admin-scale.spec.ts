/**
 * The Admin Console on a community of 200,000 bulk-inserted members, at desktop and phone size: a search of
 * an exact nickname shows that member first (the oldest of its 1,111 matches, so newest first put it on
 * the last page), with the count's thousands separators; the Settlements table shows a state badge's whole
 * word and long hashes shortened with their whole in the title and a copy button.
 */
import { expect, type Locator, test } from '@playwright/test';
import { bulkMembers } from './bulk.ts';
import { adminSignIn, apiPost, createCurrency, newPage, registerMember, signIn, uniqueNick } from './fixtures.ts';

const MEMBERS = 200_000;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // scale1 (the oldest) … scale200000 (the newest).
  await bulkMembers({ prefix: 'scale', idPrefix: 'c', count: MEMBERS, newest: 'last' });
});

/** Whether `el` shows its whole text: no ellipsis, nothing cut by its box. */
function wholeText(el: Locator): Promise<boolean> {
  return el.evaluate((node) => {
    const inner = (node.querySelector('.mantine-Badge-label') ?? node) as HTMLElement;
    return inner.scrollWidth <= inner.clientWidth + 1 && node.scrollWidth <= (node as HTMLElement).clientWidth + 1;
  });
}

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

test('Settlements shows the whole state badge and shortened hashes with a copy button', async ({
  browser,
  isMobile,
  request,
}, info) => {
  const adminToken = await adminSignIn(request);
  const { currencyId } = await createCurrency(request, adminToken, { prefix: 'H' });
  await apiPost(request, adminToken, '/api/bank/modifyCurrency', { currencyId, canDeposit: true });
  const nick = uniqueNick('hash');
  const member = await registerMember(request, nick);
  const wallet = '0xAbCdEf0123456789abcdef0123456789ABCDEF01';
  const reference = `0x${'feed'.repeat(15)}beef`;
  await apiPost(request, member.token, '/api/bank/deposit', {
    currencyId,
    amount: '5',
    walletAddress: wallet,
    reference,
  });

  const admin = await newPage(browser, isMobile);
  await signIn(admin);
  await admin.goto('/dashboard?view=admin&tab=currency');
  const panel = admin.getByRole('region', { name: 'Settlements' });
  const row = panel.getByRole('row').filter({ hasText: nick });
  await expect(row).toBeVisible();
  const badge = row.getByText('pending', { exact: true });
  await expect(badge).toBeVisible();
  expect(await wholeText(badge)).toBe(true);
  const short = row.getByTitle(reference);
  await expect(short).toHaveText('0xfeed…beef');
  await expect(row.getByTitle(wallet)).toHaveText('0xAbCd…EF01');
  await expect(row.getByRole('button', { name: 'Copy transaction reference' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Copy wallet address' })).toBeVisible();
  await expect(row.getByText(reference, { exact: true })).toHaveCount(0);
  await row.scrollIntoViewIfNeeded();
  await admin.screenshot({ path: info.outputPath('settlements-hashes.png'), fullPage: true });
});
