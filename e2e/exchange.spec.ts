/**
 * The Quantum Hub in two browsers: member A places a sell order in the form, member B sees it appear in
 * the sell list without reloading (live feed) and buys it through the form; both see their orders
 * filled and their balances change (1% fee on each side's proceeds, burned).
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
  return page.getByRole('list', { name: 'My orders' });
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
  await expect(myOrders(pageA).getByRole('listitem', { name: 'Sell order Placed' })).toBeVisible();
  await expect(balances(pageA).getByText('95.00 SD')).toBeVisible();

  // B sees the sell appear without reloading, picks its price from the list and buys it all.
  const sells = pageB.getByRole('table', { name: 'Sell orders' });
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
  await expect(myOrders(pageB).getByRole('listitem', { name: 'Buy order Filled' })).toBeVisible();
  await expect(myOrders(pageA).getByRole('listitem', { name: 'Sell order Filled' })).toBeVisible();
  await expect(myOrders(pageA).getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await expect(pageA.getByRole('table', { name: 'Sell orders' }).getByText('No sell orders')).toBeVisible();
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
