/**
 * The Quantum Hub in two browsers: member A places a sell order in the form, member B sees it appear in
 * the sell list without reloading (live feed) and buys it through the form; both see their orders
 * filled and their balances change (1% fee on each side's proceeds, burned). And the admin's side: a
 * member's sell order paid out from Cex Control's View Orders (settled off-platform, escrow burned).
 */
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { ADMIN, acceptDisclaimerUpFront, expectNoSeriousA11yViolations, PASSWORD, uniqueNick } from './fixtures.ts';

interface Session {
  user: { nickname: string };
  token: string;
}

async function register(request: APIRequestContext, nick: string): Promise<Session> {
  const res = await request.post('/api/user/register', {
    data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
  });
  expect(res.ok()).toBe(true);
  return (await res.json()) as Session;
}

async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/user/login', {
    data: { nickOrEmail: ADMIN.nickname, password: ADMIN.password },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as Session).token;
}

/** The SD → SN pair (created on the first run; the server keeps it for the other project's run). */
async function ensurePair(request: APIRequestContext, token: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  const list = (await (await request.get('/api/cex/getPairs', { headers })).json()) as {
    pairs: Array<{ _id: string; buyCurrency: number; sellCurrency: number }>;
  };
  let pairId = list.pairs.find((p) => p.buyCurrency === 1 && p.sellCurrency === 2)?._id;
  if (!pairId) {
    const res = await request.post('/api/cex/createPair', {
      headers,
      data: { buyCurrency: 1, sellCurrency: 2, canBuy: true, canSell: true, fee: '0.01', feeCollector: '' },
    });
    expect(res.ok()).toBe(true);
    pairId = ((await res.json()) as { pair: { _id: string } }).pair._id;
  }
  // Start from an empty book: the admin cancels whatever an earlier run left open.
  const book = (await (await request.post('/api/cex/getOrders', { data: { pair: pairId } })).json()) as {
    orders: { buys: Array<{ _id: string }>; sells: Array<{ _id: string }> };
  };
  for (const o of [...book.orders.buys, ...book.orders.sells]) {
    await request.post('/api/cex/cancelOrder', {
      headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
      data: { orderId: o._id },
    });
  }
  return pairId;
}

async function mint(request: APIRequestContext, token: string, nick: string, currencyId: number, amount: string) {
  const res = await request.post('/api/bank/mint', {
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
    data: { recipientNickName: nick, currencyId, amount, note: 'exchange e2e' },
  });
  expect(res.ok()).toBe(true);
}

/** A member's SD balance as GET /api/user/me reports it. */
async function sdBalance(request: APIRequestContext, token: string): Promise<number> {
  const res = await request.get('/api/user/me', { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  const { user } = (await res.json()) as { user: { balances: Array<{ currencyId: number; amount: string }> } };
  return Number(user.balances.find((b) => b.currencyId === 1)?.amount ?? '0');
}

/** GET /api/bank/audit (admin): conservation holds; answers what has been removed from SD so far. */
async function auditRemovedSd(request: APIRequestContext, token: string): Promise<number> {
  const res = await request.get('/api/bank/audit', { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { ok: boolean; currencies: Array<{ currencyId: number; removed: string }> };
  expect(body.ok).toBe(true);
  return Number(body.currencies.find((c) => c.currencyId === 1)?.removed ?? '0');
}

/** A browser context signed in as `session` (stored like the login page stores it), on the pair. */
async function signedInPage(browser: Browser, isMobile: boolean, session: Session, pairId: string): Promise<Page> {
  const context = await browser.newContext(
    isMobile
      ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
      : { viewport: { width: 1280, height: 800 } },
  );
  const page = await context.newPage();
  await acceptDisclaimerUpFront(page);
  await page.addInitScript(
    ([u, t, p]) => {
      localStorage.setItem('user', JSON.stringify(u));
      localStorage.setItem('token', JSON.stringify(t));
      localStorage.setItem('tokenexpires', JSON.stringify(Date.now() + 86_400_000));
      localStorage.setItem('quantumhubPair', p as string);
    },
    [session.user, session.token, pairId] as const,
  );
  await page.goto('/quantumhub');
  await expect(page.getByRole('heading', { name: 'Quantum Hub' })).toBeVisible();
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  return page;
}

function balances(page: Page) {
  return page.getByRole('region', { name: 'My balances' });
}

function myOrders(page: Page) {
  return page.getByRole('table', { name: 'My orders' });
}

/** Shows the orders of one state in My orders (Open by default). */
async function showMyOrders(page: Page, which: 'Open' | 'Filled' | 'Cancelled') {
  await page.getByRole('region', { name: 'My orders', exact: true }).getByText(which, { exact: true }).click();
}

test('a sell placed by one member is bought by another, live', async ({ browser, isMobile, request }) => {
  const seller = await register(request, uniqueNick('sella'));
  const buyer = await register(request, uniqueNick('buyb'));
  const admin = await adminToken(request);
  await mint(request, admin, seller.user.nickname, 1, '100');
  await mint(request, admin, buyer.user.nickname, 2, '100');
  const pairId = await ensurePair(request, admin);

  const pageA = await signedInPage(browser, isMobile, seller, pairId);
  const pageB = await signedInPage(browser, isMobile, buyer, pairId);
  await expect(balances(pageA).getByText('100.00 SD')).toBeVisible();
  await expect(pageB.getByText('No orders Found')).toBeVisible();
  await expect(
    pageA.getByText('Fiat wire transfers for volumes of $5000 or more are arranged by contacting the team.'),
  ).toBeVisible();

  // A fills the form: the button waits for every field, the preview shows the fee and the proceeds.
  const submitA = pageA.getByRole('button', { name: 'Please fill in all the fields' });
  await expect(submitA).toBeDisabled();
  await pageA.getByRole('radio', { name: 'Sell SD' }).check();
  await pageA.getByLabel('Quantity', { exact: true }).fill('5');
  await expect(submitA).toBeDisabled();
  await pageA.getByLabel('Price', { exact: true }).fill('2');
  await expect(pageA.getByText('9.90 SN', { exact: true })).toBeVisible(); // 10.00 SN less the 1% fee
  await pageA.getByRole('button', { name: 'Sell SD' }).click();
  await expect(pageA.getByRole('alert').filter({ hasText: 'Placed a Sell Order of' })).toBeVisible();
  await expect(myOrders(pageA).getByRole('row', { name: 'Sell order Placed' })).toBeVisible();
  await expect(balances(pageA).getByText('95.00 SD')).toBeVisible();

  // B sees the sell appear without reloading, picks its price from the book's levels and buys it all.
  const sells = pageB.getByRole('table', { name: 'Sell price levels' });
  const row = sells.getByRole('row').filter({ hasText: '5.00' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('2.00');
  await row.click();
  await expect(pageB.getByLabel('Price', { exact: true })).toHaveValue('2');
  await pageB.getByRole('radio', { name: 'Buy SD' }).check();
  await pageB.getByLabel('Quantity', { exact: true }).fill('5');
  await expect(pageB.getByText('10.00 SN', { exact: true })).toBeVisible();
  await pageB.getByRole('button', { name: 'Buy SD' }).click();
  await expect(pageB.getByRole('alert').filter({ hasText: 'Placed a buy order of' })).toBeVisible();

  // Both orders are filled; the book is empty again; the balances moved (fees burned).
  await expect(myOrders(pageA).getByText('No orders Found')).toBeVisible();
  await showMyOrders(pageA, 'Filled');
  await showMyOrders(pageB, 'Filled');
  await expect(myOrders(pageB).getByRole('row', { name: 'Buy order Filled' })).toBeVisible();
  await expect(myOrders(pageA).getByRole('row', { name: 'Sell order Filled' })).toBeVisible();
  await expect(myOrders(pageA).getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await expect(pageA.getByRole('table', { name: 'Sell price levels' }).getByText('No sell orders')).toBeVisible();
  await expect(balances(pageB).getByText('4.95 SD')).toBeVisible();
  await expect(balances(pageB).getByText('90.00 SN')).toBeVisible();
  await expect(balances(pageA).getByText('9.90 SN')).toBeVisible();
  const lastTrade = pageA.getByRole('table', { name: 'Recent trades' }).getByRole('row').nth(1);
  await expect(lastTrade).toContainText('2.00');
  await expect(lastTrade).toContainText('5.00');

  // Toasts close by themselves (their close button is the shared toast's); then check the page.
  await expect(pageB.getByRole('alert')).toHaveCount(0, { timeout: 8000 });
  await expectNoSeriousA11yViolations(pageB);
  await pageA.context().close();
  await pageB.context().close();
});

test('signed out: a prompt to log in instead of the form', async ({ page }) => {
  await acceptDisclaimerUpFront(page);
  await page.goto('/quantumhub');
  await expect(page.getByRole('heading', { name: 'Quantum Hub' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Please fill in all the fields' })).toHaveCount(0);
});

test('the admin pays out a sell order in View Orders', async ({ page, isMobile, request }) => {
  // A member sells 7.25 SD at 3.5 SN on the SD → SN pair (through the API): the 7.25 SD go to escrow.
  const seller = await register(request, uniqueNick('payout'));
  const admin = await adminToken(request);
  await mint(request, admin, seller.user.nickname, 1, '100');
  const pairId = await ensurePair(request, admin);
  const pairs = (await (await request.get('/api/cex/getPairs')).json()) as {
    pairs: Array<{ _id: string; name: string }>;
  };
  const pairName = pairs.pairs.find((p) => p._id === pairId)?.name ?? '';
  const placed = await request.post('/api/cex/placeOrder', {
    headers: { authorization: `Bearer ${seller.token}`, 'idempotency-key': crypto.randomUUID() },
    data: { pair: pairId, buySide: false, initialAmount: '7.25', price: '3.5' },
  });
  expect(placed.ok()).toBe(true);
  const orderId = ((await placed.json()) as { order: { _id: string } }).order._id;
  expect(await sdBalance(request, seller.token)).toBe(92.75);
  const removedBefore = await auditRemovedSd(request, admin);

  // The admin signs in, opens the Admin Console, the Cex Control tab and the pair's View Orders.
  await acceptDisclaimerUpFront(page);
  await page.goto('/login');
  await page.getByLabel('Nickname or e-mail').fill(ADMIN.nickname);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Admin' }).click();
  await page.getByRole('tab', { name: 'Cex Control' }).click();
  await expect(page).toHaveURL(/[?&]tab=cex-control/);
  // The pair's View Orders is in view without scrolling sideways (a table on a desktop, cards on a phone):
  // the page is scrolled down to it only (other specs' pairs may come first in the list).
  const viewOrders = page
    .getByRole(isMobile ? 'list' : 'table', { name: 'Trading Pairs' })
    .getByRole('button', { name: `View Orders of ${pairName}` });
  await viewOrders.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - window.innerHeight / 2));
  await expect(viewOrders).toBeInViewport();
  await viewOrders.click();
  const modal = page.getByRole('dialog', { name: `Orders · ${pairName}` });
  await expect(modal).toBeVisible();

  // The member's order in the Sells table: initial 7.25, filled 0.00, price 3.50, Placed.
  const sells = modal.getByRole('table', { name: 'Sells' });
  await expect(sells.getByRole('columnheader')).toContainText([
    'Created at',
    'Initial amount',
    'Filled amount',
    'Price',
    'State',
  ]);
  const row = sells.getByRole('row').filter({ hasText: '7.25' }).filter({ hasText: '3.50' });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell')).toContainText(['', '7.25', '0.00', '3.50', 'Placed']);
  // Every column and the Payout button show without scrolling the table sideways, on a phone too.
  const sellsRegion = modal.getByRole('region', { name: 'Sells (scrollable)' });
  expect(await sellsRegion.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);

  // Payout asks first (the escrow is burned for good): Escape backs out and leaves the order alone.
  const payout = row.getByRole('button', { name: 'Payout the sell order of 7.25 SD at 3.50 SN' });
  await payout.click();
  const confirm = page.getByRole('dialog', { name: 'Payout Sell Order' });
  await expect(confirm).toContainText('the 7.25 SD still in escrow are burned and the order becomes Filled');
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(modal).toBeVisible();
  await expect(row).toContainText('Placed');

  // The admin confirms and sees the server's message.
  await payout.click();
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Payout', exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('alert').filter({ hasText: 'Sell order paid out' })).toBeVisible();

  // The order has left the book: the Sells table is empty again.
  await expect(row).toHaveCount(0);
  await expect(sells.getByText('No orders Found')).toBeVisible();

  // The member's order is Filled in full; the escrowed SD did not come back: it was burned.
  const mine = (await (
    await request.get('/api/cex/getUserOrders', { headers: { authorization: `Bearer ${seller.token}` } })
  ).json()) as { orders: Array<{ _id: string; state: number; initialAmount: string; filledAmount: string }> };
  const order = mine.orders.find((o) => o._id === orderId);
  expect(order?.state).toBe(3);
  expect(Number(order?.filledAmount)).toBe(7.25);
  expect(await sdBalance(request, seller.token)).toBe(92.75);
  expect((await auditRemovedSd(request, admin)) - removedBefore).toBeCloseTo(7.25, 6);

  // The open View Orders modal passes axe once the toast has closed by itself.
  await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 8000 });
  await expect(modal).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Escape closes View Orders; the Trading Pairs list passes axe too.
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  // Axe runs once the closing transition is over (a half-faded title fails its contrast check).
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(viewOrders).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
