/**
 * CSV exports (DESIGN §11.6): a member downloads their transaction history with "Export CSV" (a
 * single-use link, never the session's token in the URL) and the file holds their rows, spreadsheet-safe,
 * with the filters on screen. Desktop and phone; screenshots kept.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { adminSignIn, apiPost, newPage, PASSWORD, registerMember, signIn, uniqueNick } from './fixtures.ts';

const HOSTILE_NOTE = '=1+1, "quoted" 🚀';

test('a member downloads their history as CSV, with the filters on screen', async ({ browser, isMobile }, testInfo) => {
  const page = await newPage(browser, isMobile);
  const adminToken = await adminSignIn(page.request);
  const nick = uniqueNick('csv');
  await registerMember(page.request, nick);
  for (const [amount, note] of [
    ['12.50', HOSTILE_NOTE],
    ['3', 'second mint'],
  ] as const) {
    await apiPost(page.request, adminToken, '/api/bank/mint', { recipientNickName: nick, currencyId: 1, amount, note });
  }
  await signIn(page, nick, PASSWORD);
  if (isMobile) {
    await page.goto('/userbank');
    // The phone opens a currency's log from its card: the log is filtered by that currency (SD, id 1).
    await page.getByRole('button', { name: 'Stardust' }).click();
  } else {
    await page.goto('/userbank?tab=logs');
  }
  const button = page.getByTestId('export-csv');
  await expect(button).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('exports-history.png'), fullPage: true });

  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(download.url()).toMatch(/\/api\/bank\/transactions\.csv\?.*token=/);
  expect(download.url()).not.toMatch(/eyJ/); // no JWT in the URL
  const file = await download.path();
  const [header, ...rows] = parse(await readFile(file, 'utf8'), { record_delimiter: '\r\n' }) as string[][];
  expect(header).toEqual([
    'Date (UTC)',
    'Id',
    'Category',
    'Currency',
    'Amount',
    'Sender',
    'Recipient',
    'Executor',
    'Note',
    'Reference',
  ]);
  expect(rows.map((r) => [r[2], r[3], r[4], r[6], r[8]])).toEqual([
    ['Mint', 'SD', '3.00', nick, 'second mint'],
    ['Mint', 'SD', '12.50', nick, `'${HOSTILE_NOTE}`],
  ]);
  // The link worked once: opening it again is refused.
  const again = await page.request.get(download.url());
  expect(again.status()).toBe(401);
  await expect(button).toBeEnabled();
  await page.screenshot({ path: testInfo.outputPath('exports-downloaded.png'), fullPage: true });
  await page.context().close();
});

test('the admin exports Tnx Logs and Access Logs with the filters on screen', async ({
  browser,
  isMobile,
}, testInfo) => {
  const page = await newPage(browser, isMobile);
  const adminToken = await adminSignIn(page.request);
  const nick = uniqueNick('csva');
  await registerMember(page.request, nick);
  await apiPost(page.request, adminToken, '/api/bank/mint', {
    recipientNickName: nick,
    currencyId: 1,
    amount: '4',
    note: '@admin, "export"',
  });
  await signIn(page);
  await page.goto('/dashboard?view=admin&tab=tnx');
  await page.getByTestId('tnx-nickname').fill(nick);
  await page.getByTestId('tnx-search').click();
  await expect(page.getByTestId('tnx-row').first()).toContainText(nick);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/^all-transactions-/);
  expect(download.url()).toContain(`nickname=${nick}`);
  const [, ...rows] = parse(await readFile(await download.path(), 'utf8'), { record_delimiter: '\r\n' }) as string[][];
  expect(rows.map((r) => [r[2], r[4], r[6], r[8]])).toEqual([['Mint', '4.00', nick, `'@admin, "export"`]]);
  await page.screenshot({ path: testInfo.outputPath('exports-tnx.png'), fullPage: true });

  await page.goto('/dashboard?view=admin&tab=access-logs');
  await page.getByRole('textbox', { name: 'User', exact: true }).fill(nick);
  await page.getByRole('button', { name: 'Search' }).click();
  const [logs] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const [header, ...signIns] = parse(await readFile(await logs.path(), 'utf8'), {
    record_delimiter: '\r\n',
  }) as string[][];
  expect(header).toEqual(['Date (UTC)', 'Id', 'User', 'Address', 'Login type']);
  // The member registered (a sign-in of their own) and was never signed in elsewhere.
  expect(signIns.every((r) => r[2] === nick)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('exports-access-logs.png'), fullPage: true });
  await page.context().close();
});
