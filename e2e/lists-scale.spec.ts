/**
 * The admin console's log tabs stay usable past the counting bound. More than COUNT_CAP
 * access-log rows are inserted straight into the test database; Access Logs then shows "10,000+ in all",
 * Next pages on, and a filter narrows to an exact total. Desktop and phone; screenshots in the results.
 */
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { ADMIN, newPage, PASSWORD, signIn, uniqueNick } from './fixtures.ts';

/** The database the e2e server runs on (e2e/serve.ts). */
function databaseUrl(): string {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${process.env.STARLIGHT_E2E_DB ?? 'starlight_e2e'}`;
  return url.toString();
}

test('Access Logs past 10,000 rows: "10,000+", Next pages on, a filter narrows it', async ({
  browser,
  isMobile,
}, testInfo) => {
  const page = await newPage(browser, isMobile);
  const nick = uniqueNick('bulk');
  const res = await page.request.post('/api/user/register', {
    data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
  });
  expect(res.ok()).toBe(true);
  const userId = ((await res.json()) as { user: { _id: string } }).user._id;
  // 10,050 sign-ins of this member over the last hours, 25 of them from a network of this run's own.
  const net = `198.18.${Math.floor(Math.random() * 250)}.`;
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO access_logs (id, created_at, user_id, address, login_type)
       SELECT substr(md5(random()::text || i), 1, 24), now() - make_interval(secs => i), $1,
              CASE WHEN i % 402 = 0 THEN $2 || (i % 7) ELSE '192.0.2.77' END, 1
       FROM generate_series(1, 10050) i`,
      [userId, net],
    );
  } finally {
    await client.end();
  }

  await signIn(page, ADMIN.nickname, ADMIN.password);
  await page.goto('/dashboard?view=admin&tab=access-logs');
  const access = page.getByRole('region', { name: 'Access Logs' });
  const status = access.getByText(/^Page \d+ of /).first();
  await expect(status).toHaveText('Page 1 of 1,000+ · 10,000+ in all');
  const firstRow = await access.getByRole('row').nth(1).textContent();
  await page.screenshot({ path: testInfo.outputPath('access-logs-capped.png'), fullPage: true });

  // The count's bound moves with the page (COUNT_CAP rows past its first row), so Next always leads on.
  await access.getByRole('button', { name: 'Next' }).first().click();
  await expect(status).toHaveText('Page 2 of 1,001+ · 10,010+ in all');
  await expect(access.getByRole('row').nth(1)).not.toHaveText(firstRow ?? '');
  await access.getByRole('button', { name: 'Previous' }).first().click();
  await expect(status).toHaveText('Page 1 of 1,000+ · 10,000+ in all');

  // An address filter (addresses that start with it) and the member narrow to the exact count.
  await access.getByLabel('Address').fill(net);
  await access.getByRole('button', { name: 'Search' }).click();
  await expect(status).toHaveText('Page 1 of 3 · 25 in all');
  await expect(access.getByRole('cell', { name: '192.0.2.77' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('access-logs-filtered.png'), fullPage: true });
  await access.getByRole('button', { name: 'Next' }).first().click();
  await expect(status).toHaveText('Page 2 of 3 · 25 in all');
  await access.getByLabel('Address').fill('');
  await access.getByLabel('User').fill(nick);
  await access.getByRole('button', { name: 'Search' }).click();
  // Their registration's sign-in and the 10,050 inserted: one member's total is kept on write, exact
  // past the bound.
  await expect(status).toHaveText('Page 1 of 1,006 · 10,051 in all');
});
