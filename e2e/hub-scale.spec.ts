/**
 * The Quantum Hub with a deep book, at desktop and phone size: a pair of its own holds 5,000 open orders a
 * side over 1,000 prices each, bulk-inserted into the browser tests' database. The book shows at most 20
 * price levels a side in panels that scroll, so the page stays short; My orders shows one page of one state
 * (Open, Filled, Cancelled); the dashboard's open orders link on to it; a visitor is not told to use a form
 * that is not there; the admin's View Orders shows a page of each side.
 *
 * The book's orders hold no escrow (escrow_remaining 0, no ledger row): the conservation audit reads the
 * ledger only, and nothing here cancels, fills or pays them out; the test ends with the audit.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import {
  ADMIN,
  adminSignIn,
  apiPost,
  expectNoSeriousA11yViolations,
  newPage,
  registerMember,
  storeSession,
  uniqueNick,
} from './fixtures.ts';

// Each test loads several pages on a test machine shared with other runs.
test.describe.configure({ timeout: 480_000 });

const PER_SIDE = 5_000;
const PRICES = 1_000;
const BOOK_OWNER = 'hubbookowner';

/** The browser tests' database (e2e/serve.ts made it fresh for this run). */
function databaseUrl(): string {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${process.env.STARLIGHT_E2E_DB ?? 'starlight_e2e'}`;
  return url.toString();
}

async function sql(text: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

/**
 * The deep book's pair ("Hubbase → Hubquote"), made once per run (the second project finds it), and its
 * 2 x 5,000 open orders in one INSERT … SELECT: sells from 100.00 up, buys from 99.99 down, five orders a
 * price, owned by one member. Answers the pair's id and name.
 */
async function ensureDeepBook(request: APIRequestContext, admin: string): Promise<{ id: string; name: string }> {
  const { pairs } = (await (
    await request.get('/api/cex/getPairs', { headers: { authorization: `Bearer ${admin}` } })
  ).json()) as { pairs: Array<{ _id: string; name: string }> };
  let pair = pairs.find((p) => p.name === 'Hubbase → Hubquote');
  if (!pair) {
    const currency = async (ticker: string, name: string) =>
      (
        await apiPost<{ currency: { currencyId: number } }>(request, admin, '/api/bank/createCurrency', {
          ticker,
          name,
          precision: 2,
          canDeposit: false,
          canWithdraw: false,
          canTransfer: true,
          canMint: true,
          canBurn: true,
        })
      ).currency.currencyId;
    const buyCurrency = await currency('HUBB', 'Hubbase');
    const sellCurrency = await currency('HUBQ', 'Hubquote');
    pair = (
      await apiPost<{ pair: { _id: string; name: string } }>(request, admin, '/api/cex/createPair', {
        buyCurrency,
        sellCurrency,
        canBuy: true,
        canSell: true,
      })
    ).pair;
    await registerMember(request, BOOK_OWNER);
  }
  await sql(
    `INSERT INTO exchange_orders (id, pair_id, user_id, buy_side, initial_amount, filled_amount, price, state,
                                  escrow_remaining, created_at, updated_at)
     SELECT 'e0' || lpad(to_hex(g), 22, '0'), $1, u.id, g % 2 = 0, 1 + g % 7, 0,
            CASE WHEN g % 2 = 0 THEN 99.99 - (g / 2 % $3) * 0.01 ELSE 100 + (g / 2 % $3) * 0.01 END,
            1, 0, now() - g * interval '1 second', now() - g * interval '1 second'
     FROM generate_series(1, 2 * $2::int) g CROSS JOIN (SELECT id FROM users WHERE nickname = $4) u
     ON CONFLICT DO NOTHING`,
    [pair._id, PER_SIDE, PRICES, BOOK_OWNER],
  );
  return { id: pair._id, name: pair.name };
}

/** `nickname`'s own orders on `pair`: `open` Placed, `filled` Filled and `cancelled` Cancelled buys. */
async function ownOrders(nickname: string, pair: string, counts: { open: number; filled: number; cancelled: number }) {
  const total = counts.open + counts.filled + counts.cancelled;
  await sql(
    `INSERT INTO exchange_orders (id, pair_id, user_id, buy_side, initial_amount, filled_amount, price, state,
                                  escrow_remaining, created_at, updated_at)
     SELECT 'e1' || substr(md5(u.id || g), 1, 22), $1, u.id, true, 2,
            CASE WHEN g <= $2::int + $3::int AND g > $2::int THEN 2 ELSE 0 END, 90 + g * 0.01,
            CASE WHEN g <= $2::int THEN 1 WHEN g <= $2::int + $3::int THEN 3 ELSE 2 END, 0,
            now() - ($4::int - g) * interval '1 minute', now() - ($4::int - g) * interval '1 minute'
     FROM generate_series(1, $4::int) g CROSS JOIN (SELECT id FROM users WHERE nickname = $5) u
     ON CONFLICT DO NOTHING`,
    [pair, counts.open, counts.filled, total, nickname],
  );
}

/** True when the element shows all of its text (nothing clipped or cut to an ellipsis). */
function showsWhole(selector: ReturnType<Page['getByText']>) {
  return selector.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1);
}

test('the Hub shows a deep book by price level, pages My orders, and the dashboard links there', async ({
  browser,
  isMobile,
  request,
}, info) => {
  const admin = await adminSignIn(request);
  const pair = await ensureDeepBook(request, admin);
  const member = await registerMember(request, uniqueNick('hubpage'));
  await ownOrders(member.user.nickname, pair.id, { open: 57, filled: 23, cancelled: 12 });

  const page = await newPage(browser, isMobile);
  await storeSession(page, member);
  await page.addInitScript((p) => localStorage.setItem('quantumhubPair', p), pair.id);
  await page.goto('/quantumhub');

  // The book by price level: 20 levels a side, best first, each summing its five orders (the member's
  // own open buys, from 90.01 to 90.57, lie far below the best buys).
  const sells = page.getByRole('table', { name: 'Sell price levels' });
  const buys = page.getByRole('table', { name: 'Buy price levels' });
  // The first load waits for the page's code on a busy test machine: a longer wait, not a timing assertion.
  await expect(sells.getByRole('row')).toHaveCount(21, { timeout: 90_000 });
  await expect(buys.getByRole('row')).toHaveCount(21);
  await expect(sells.getByRole('row').nth(1)).toContainText('100.00');
  await expect(sells.getByRole('row').nth(1).getByRole('cell').nth(2)).toHaveText('5');
  await expect(buys.getByRole('row').nth(1)).toContainText('99.99');
  await expect(buys.getByRole('row').nth(20)).toContainText('99.80');

  // Each side scrolls inside its panel; the whole page stays a few screens tall.
  const sellPanel = page.getByRole('region', { name: 'Sell price levels (scrollable)' });
  expect(await sellPanel.evaluate((el) => el.scrollHeight > el.clientHeight && el.clientHeight <= 340)).toBe(true);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height).toBeLessThan(isMobile ? 6_500 : 3_000);

  // Clicking a level copies its price into the form, and the hint says so.
  await expect(page.getByText('Click a price level to copy its price into the form.')).toBeVisible();
  await sells.getByRole('row').nth(3).click();
  await expect(page.getByLabel('Price', { exact: true })).toHaveValue('100.02');
  await page.screenshot({ path: info.outputPath('hub-levels.png'), fullPage: true });

  // My orders: a page of ten of the 57 open orders, newest first (the last placed, at 90.57); then the
  // filled and the cancelled.
  const mine = page.getByRole('region', { name: 'My orders', exact: true });
  const table = page.getByRole('table', { name: 'My orders' });
  await expect(table.getByRole('row')).toHaveCount(11);
  await expect(mine.getByText('Page 1 of 6 · 57 in all')).toBeVisible();
  await expect(table.getByRole('row').nth(1)).toContainText('90.57');
  await mine.getByRole('button', { name: 'Next' }).click();
  await expect(mine.getByText('Page 2 of 6 · 57 in all')).toBeVisible();
  await expect(table.getByRole('row').nth(1)).toContainText('90.47');
  await mine.getByText('Filled', { exact: true }).click();
  await expect(mine.getByText('Page 1 of 3 · 23 in all')).toBeVisible();
  await expect(table.getByRole('row', { name: 'Buy order Filled' })).toHaveCount(10);
  await mine.getByText('Cancelled', { exact: true }).click();
  await expect(mine.getByText('Page 1 of 2 · 12 in all')).toBeVisible();
  await expect(table.getByRole('row', { name: 'Buy order Cancelled' })).toHaveCount(10);
  await mine.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('hub-my-orders.png') });

  // The individual orders are one click away, in panels of the same height.
  await page.getByRole('radiogroup', { name: 'Order book view' }).getByText('Orders', { exact: true }).click();
  const sellOrders = page.getByRole('region', { name: 'Sell orders (scrollable)' });
  await expect(sellOrders.getByRole('row').nth(1)).toContainText('100.00');
  expect(await sellOrders.evaluate((el) => el.clientHeight <= 340)).toBe(true);
  await expectNoSeriousA11yViolations(page);

  // The dashboard: five open orders, side badges whole, and "and 52 more" leads to My orders.
  await page.goto('/dashboard');
  const card = page.getByTestId('member-console').getByRole('region', { name: 'Open orders' });
  await expect(card.getByRole('row')).toHaveCount(6, { timeout: 90_000 });
  const badge = card.getByText('Buy', { exact: true }).first();
  await expect(badge).toBeVisible();
  expect(await showsWhole(badge), 'the side badge is cut').toBe(true);
  await page.screenshot({ path: info.outputPath('dashboard-open-orders.png'), fullPage: true });
  await card.getByRole('link', { name: 'and 52 more' }).click();
  await expect(page).toHaveURL(/\/quantumhub#my-orders$/);
  await expect(page.getByRole('radio', { name: 'All pairs' })).toBeChecked();
  await expect(
    page.getByRole('region', { name: 'My orders', exact: true }).getByText('Page 1 of 6 · 57 in all'),
  ).toBeInViewport();
  await page.context().close();
});

test('a visitor reads the levels without being told to use a form; the admin pages View Orders', async ({
  browser,
  isMobile,
  request,
}, info) => {
  const admin = await adminSignIn(request);
  const pair = await ensureDeepBook(request, admin);

  const visitor = await newPage(browser, isMobile);
  await visitor.addInitScript((p) => localStorage.setItem('quantumhubPair', p), pair.id);
  await visitor.goto('/quantumhub');
  await expect(visitor.getByRole('table', { name: 'Sell price levels' }).getByRole('row')).toHaveCount(21, {
    timeout: 90_000,
  });
  await expect(visitor.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(visitor.getByText(/to copy its price into the form/)).toHaveCount(0);
  await visitor.screenshot({ path: info.outputPath('hub-visitor.png'), fullPage: true });
  await visitor.context().close();

  // The admin's session as the login page stores it (the login form has tests of its own).
  const login = await request.post('/api/user/login', {
    data: { nickOrEmail: ADMIN.nickname, password: ADMIN.password },
  });
  const page = await newPage(browser, isMobile);
  await storeSession(page, (await login.json()) as { user: unknown; token: string });
  await page.goto('/dashboard?view=admin&tab=cex-control');
  await page
    .getByRole(isMobile ? 'list' : 'table', { name: 'Trading Pairs' })
    .getByRole('button', { name: `View Orders of ${pair.name}` })
    .click({ timeout: 90_000 });
  const modal = page.getByRole('dialog', { name: `Orders · ${pair.name}` });
  const sells = modal.getByRole('table', { name: 'Sells' });
  await expect(sells.getByRole('row')).toHaveCount(21);
  // Buys first, then sells: each side pages on its own.
  const sellPaging = modal.getByText(/^Page \d+ of [\d,]+ · [\d,]+ in all$/).nth(1);
  await expect(sellPaging).toHaveText('Page 1 of 250 · 5,000 in all');
  await expect(sells.getByRole('row').nth(1)).toContainText('100.00');
  await modal.getByRole('button', { name: 'Next' }).nth(1).click();
  await expect(sellPaging).toHaveText('Page 2 of 250 · 5,000 in all');
  await expect(sells.getByRole('row').nth(1)).toContainText('100.04');
  await page.screenshot({ path: info.outputPath('admin-view-orders.png') });
  await page.context().close();

  // Nothing here moved money: the ledger's audit still balances.
  const audit = await request.get('/api/bank/audit?full=true', { headers: { authorization: `Bearer ${admin}` } });
  expect(audit.ok()).toBe(true);
  expect(((await audit.json()) as { ok: boolean }).ok).toBe(true);
});
