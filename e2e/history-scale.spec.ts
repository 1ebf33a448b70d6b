/**
 * Deep histories stay usable: one member with 20,000 ledger rows (of a currency of this run's own), read
 * by the member (User Logs) and by the admin (Tnx Logs). The total stays the same while paging, a page
 * number and a date each lead straight to their page. The rows are bulk-inserted backdated with their
 * balance in one transaction, and the rollup's state dropped in the same one, so its next tick rebuilds it
 * over them: the conservation audit other tests run stays clean. Desktop and phone; screenshots kept.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import pg from 'pg';
import { ADMIN, adminSignIn, createCurrency, newPage, PASSWORD, signIn, uniqueNick } from './fixtures.ts';

/** The machine running these is shared and busy: waits get more room than the default (never a timing assertion). */
const slow = expect.configure({ timeout: 30_000 });

const ROWS = 20_000;
/** Minutes between two of the member's rows: 20,000 rows span about 278 days. */
const STEP_MIN = 20;

/** The database the e2e server runs on (e2e/serve.ts). */
function databaseUrl(): string {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${process.env.STARLIGHT_E2E_DB ?? 'starlight_e2e'}`;
  return url.toString();
}

/** 'YYYY-MM-DD' of `days` ago (UTC) and how the lists show it (en-GB, UTC here). */
function dayAgo(days: number): { iso: string; shown: string } {
  const iso = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  const [y, m, d] = iso.split('-');
  return { iso, shown: `${d}/${m}/${y}` };
}

/** The paging status line ("Page 1 of 2,000 · 20,000 in all") inside `scope`. */
const statusOf = (scope: Locator | Page) => scope.getByText(/^Page [\d,]+ (of [\d,]+\+? )?· /).first();

test('a 20,000-row history: a steady total, a page by number, a date', async ({ browser, isMobile }, testInfo) => {
  test.setTimeout(480_000);
  const page = await newPage(browser, isMobile);
  const adminToken = await adminSignIn(page.request);
  const { currencyId, ticker } = await createCurrency(page.request, adminToken, { prefix: 'DH' });
  const nick = uniqueNick('deep');
  const res = await page.request.post('/api/user/register', {
    data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
  });
  expect(res.ok()).toBe(true);
  const userId = ((await res.json()) as { user: { _id: string } }).user._id;

  const day = dayAgo(100);
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  let newer: number;
  try {
    await client.query('BEGIN');
    // 20,000 mints to the member, one every 20 minutes back from now, and their balance.
    await client.query(
      `INSERT INTO bank_transactions (id, created_at, category, currency_id, amount, executor_id, sender_id, recipient_id, note)
       SELECT substr(md5($1 || i), 1, 24), date_trunc('minute', now()) - make_interval(mins => i * $4::int),
              10, $2, 1, NULL, NULL, $3, 'deep history'
       FROM generate_series(1, $5::int) i`,
      [nick, currencyId, userId, STEP_MIN, ROWS],
    );
    await client.query(
      `INSERT INTO balances (user_id, currency_id, amount) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, currency_id) DO UPDATE SET amount = balances.amount + EXCLUDED.amount`,
      [userId, currencyId, ROWS],
    );
    // The rollup rebuilds itself over every row at its next tick.
    await client.query('DELETE FROM ledger_rollup_state');
    await client.query('COMMIT');
    // The rebuild takes some seconds on a busy machine; the lists are read once it is done.
    await expect
      .poll(async () => (await client.query('SELECT 1 FROM ledger_rollup_state')).rowCount, { timeout: 60_000 })
      .toBe(1);
    const n = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM bank_transactions WHERE currency_id = $1 AND created_at >= $2::date + 1`,
      [currencyId, day.iso],
    );
    newer = Number(n.rows[0]?.n);
  } finally {
    await client.end();
  }
  // The page (10 a page) holding the newest row at or before the day.
  const dayPage = Math.floor(newer / 10) + 1;
  const steady = (p: number) => `Page ${p.toLocaleString('en-GB')} of 2,000 · 20,000 in all`;

  // The member's own log of that currency.
  await signIn(page, nick, PASSWORD);
  const status = statusOf(page);
  // A first load on this busy machine sometimes leaves the lazy panel undrawn: load again until it is.
  await expect(async () => {
    await page.goto(`/userbank?tab=logs&txCurrency=${currencyId}`);
    await expect(status).toHaveText(steady(1), { timeout: 20_000 });
  }).toPass({ timeout: 120_000 });
  await page.screenshot({ path: testInfo.outputPath('member-history.png'), fullPage: true });
  await page.getByRole('button', { name: 'Next' }).first().click();
  await slow(status).toHaveText(steady(2));
  await page.getByRole('button', { name: 'Next' }).first().click();
  await slow(status).toHaveText(steady(3));
  // A page by its number.
  const toPage = page.getByRole('form', { name: 'Go to page' });
  await toPage.getByLabel('Go to page').fill('1500');
  await toPage.getByRole('button', { name: 'Go' }).click();
  await slow(status).toHaveText(steady(1500));
  await slow(page).toHaveURL(/txPage=1500/);
  // A date: the page holding its newest row, which shows that day.
  const toDate = page.getByRole('form', { name: 'Go to date' });
  await toDate.getByLabel('Go to date').fill(day.iso);
  await toDate.getByRole('button', { name: 'Go' }).click();
  await slow(status).toHaveText(steady(dayPage));
  await slow(page.getByText(day.shown).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('member-history-date.png'), fullPage: true });
  await page.getByRole('button', { name: 'Previous' }).first().click();
  await slow(status).toHaveText(steady(dayPage - 1));
  await page.context().close();

  // The admin's Tnx Logs of that currency: the rollup's exact total once it has rebuilt.
  const admin = await newPage(browser, isMobile);
  await signIn(admin, ADMIN.nickname, ADMIN.password);
  const tnx = admin.getByRole('region', { name: 'Tnx Logs' });
  await expect(async () => {
    await admin.goto(`/dashboard?view=admin&tab=tnx&txCurrency=${currencyId}`);
    await expect(statusOf(tnx)).toHaveText(steady(1), { timeout: 20_000 });
  }).toPass({ timeout: 120_000 });
  await slow(tnx.getByTestId('tnx-row').first()).toContainText(nick);
  await tnx.getByRole('button', { name: 'Next' }).first().click();
  await slow(statusOf(tnx)).toHaveText(steady(2));
  const adminToPage = tnx.getByRole('form', { name: 'Go to page' });
  await adminToPage.getByLabel('Go to page').fill('1999');
  await adminToPage.getByRole('button', { name: 'Go' }).click();
  await slow(statusOf(tnx)).toHaveText(steady(1999));
  const adminToDate = tnx.getByRole('form', { name: 'Go to date' });
  await adminToDate.getByLabel('Go to date').fill(day.iso);
  await adminToDate.getByRole('button', { name: 'Go' }).click();
  await slow(statusOf(tnx)).toHaveText(steady(dayPage));
  await slow(tnx.getByTestId('tnx-row').filter({ hasText: day.shown }).first()).toContainText(ticker);
  await admin.screenshot({ path: testInfo.outputPath('admin-tnx-date.png'), fullPage: true });
  await admin.context().close();
});
