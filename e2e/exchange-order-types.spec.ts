/**
 * Order types on the Quantum Hub's order form (DESIGN §11.4), at desktop and phone size: a market buy
 * (no price field) fills at once against the book and returns the escrow it did not spend; an IOC limit
 * buy fills what it can and cancels the rest. The form shows a market buy's expected average price and
 * slippage from the book; a stop-limit buy placed from the form escrows its price and waits Untriggered in
 * My orders (Stops); when another member's trade prints at its stop through the API, it is placed and
 * fills against the book, and My orders shows it Filled. A good-till-date order placed from the form shows its
 * time; one the server cancels at its time reads Expired, one its member cancels reads Cancelled. Screenshots of
 * the form and My orders in the results.
 */
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import {
  adminSignIn,
  apiPost,
  createCurrency,
  expectNoSeriousA11yViolations,
  newPage,
  registerMember,
  storeSession,
  uniqueNick,
} from './fixtures.ts';

/** A member's balance of `currencyId` as GET /api/user/me reports it. */
async function balanceOf(page: Page, token: string, currencyId: number): Promise<number> {
  const res = await page.request.get('/api/user/me', { headers: { authorization: `Bearer ${token}` } });
  const { user } = (await res.json()) as { user: { balances: Array<{ currencyId: number; amount: string }> } };
  return Number(user.balances.find((b) => b.currencyId === currencyId)?.amount ?? '0');
}

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Two fresh currencies with a pair between them, as the admin. */
async function newMarket(request: APIRequestContext, admin: string, prefix: string) {
  const base = await createCurrency(request, admin, { prefix: `${prefix}T` });
  const quote = await createCurrency(request, admin, { prefix: `${prefix}Q` });
  const { pair } = await apiPost<{ pair: { _id: string } }>(request, admin, '/api/cex/createPair', {
    buyCurrency: base.currencyId,
    sellCurrency: quote.currencyId,
    canBuy: true,
    canSell: true,
  });
  return { base, quote, pair };
}

/** Mints each `[nickname, currencyId, amount]` as the admin. */
async function mintAll(
  request: APIRequestContext,
  admin: string,
  grants: ReadonlyArray<readonly [string, number, string]>,
) {
  for (const [nick, currencyId, amount] of grants)
    await apiPost(request, admin, '/api/bank/mint', { recipientNickName: nick, currencyId, amount, note: 'types' });
}

/** Rests sells of `[initialAmount, price]` as `token` on `pair`. */
async function restSells(
  request: APIRequestContext,
  token: string,
  pair: string,
  sells: ReadonlyArray<[string, string]>,
) {
  for (const [initialAmount, price] of sells)
    await apiPost(request, token, '/api/cex/placeOrder', { pair, buySide: false, initialAmount, price });
}

/** The Quantum Hub on `pair`, signed in as `member`, and its order form. */
async function openHub(browser: Browser, isMobile: boolean, member: Parameters<typeof storeSession>[1], pair: string) {
  const page = await newPage(browser, isMobile);
  await storeSession(page, member);
  await page.addInitScript((p) => localStorage.setItem('quantumhubPair', p), pair);
  await page.goto('/quantumhub');
  return { page, form: page.getByRole('region', { name: 'Create order' }) };
}

test('places a market buy and an IOC buy from the order form', async ({ browser, isMobile, request }, info) => {
  const admin = await adminSignIn(request);
  const { base, quote, pair } = await newMarket(request, admin, 'O');
  const seller = await registerMember(request, uniqueNick('otsell'));
  const trader = await registerMember(request, uniqueNick('ottrade'));
  await mintAll(request, admin, [
    [seller.user.nickname, base.currencyId, '20'],
    [trader.user.nickname, quote.currencyId, '100'],
  ]);
  await restSells(request, seller.token, pair._id, [
    ['2', '2'],
    ['3', '3'],
  ]);
  const { page, form } = await openHub(browser, isMobile, trader, pair._id);

  // Market: the price field goes away; 1 at 2.00 fills at once.
  await pick(page, 'Order type', 'Market');
  await expect(form.getByRole('textbox', { name: 'Price' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await form.getByRole('radio', { name: `Buy ${base.ticker}` }).check();
  await form.getByRole('textbox', { name: 'Quantity' }).fill('1');
  await form.scrollIntoViewIfNeeded();
  await form.screenshot({ path: info.outputPath('order-form-market.png') });
  await form.getByRole('button', { name: `Buy ${base.ticker}` }).click();
  await expect(page.getByRole('alert').filter({ hasText: /Placed a market buy order of 1/ })).toContainText(
    'filled at once at an average of 2',
  );
  await expect.poll(() => balanceOf(page, trader.token, quote.currencyId)).toBe(98);
  expect(await balanceOf(page, trader.token, base.currencyId)).toBe(1);

  // IOC limit at 3.00 for 10: the 1 left at 2.00 and 3 at 3.00 fill, the rest is cancelled.
  await pick(page, 'Order type', 'Limit');
  await form.getByRole('textbox', { name: 'Price' }).fill('3');
  await form.getByRole('textbox', { name: 'Quantity' }).fill('10');
  await pick(page, 'Time in force', 'Immediate or cancel');
  await expect(form.getByRole('textbox', { name: 'Expires (optional)' })).toHaveCount(0);
  await form.screenshot({ path: info.outputPath('order-form-ioc.png') });
  await form.getByRole('button', { name: `Buy ${base.ticker}` }).click();
  await expect(page.getByRole('alert').filter({ hasText: /filled at once; the rest was cancelled/ })).toBeVisible();
  // 2.00 + 9.00 spent; nothing of the order rests in escrow.
  await expect.poll(() => balanceOf(page, trader.token, quote.currencyId)).toBe(87);
  expect(await balanceOf(page, trader.token, base.currencyId)).toBe(5);
});

test('a stop-limit buy waits Untriggered, then fills when a trade prints at its stop', async ({
  browser,
  isMobile,
  request,
}, info) => {
  const admin = await adminSignIn(request);
  const { base, quote, pair } = await newMarket(request, admin, 'S');
  const seller = await registerMember(request, uniqueNick('slsell'));
  const trader = await registerMember(request, uniqueNick('sltrade'));
  const taker = await registerMember(request, uniqueNick('sltake'));
  await mintAll(request, admin, [
    [seller.user.nickname, base.currencyId, '20'],
    [trader.user.nickname, quote.currencyId, '100'],
    [taker.user.nickname, quote.currencyId, '100'],
  ]);
  await restSells(request, seller.token, pair._id, [
    ['1', '2'],
    ['2', '3'],
  ]);
  const { page, form } = await openHub(browser, isMobile, trader, pair._id);

  // A market buy of 2 would take 1 at 2.00 and 1 at 3.00: an average of 2.50, 25% from the best price.
  await pick(page, 'Order type', 'Market');
  await form.getByRole('radio', { name: `Buy ${base.ticker}` }).check();
  await form.getByRole('textbox', { name: 'Quantity' }).fill('2');
  await expect(form.getByText('Expected average price')).toBeVisible();
  await expect(form.getByText(/^25\.00% from 2\.00/)).toBeVisible();
  await form.scrollIntoViewIfNeeded();
  await form.screenshot({ path: info.outputPath('order-form-market-estimate.png') });

  // Stop-limit: buy 1 at up to 3.00 once a trade prints at 2.50 or above. 3.00 is escrowed now.
  await pick(page, 'Order type', 'Stop-limit');
  await expect(
    form.getByText('Waits until a trade at or past the stop price, then places a limit order.'),
  ).toBeVisible();
  await form.getByRole('textbox', { name: 'Quantity' }).fill('1');
  await form.getByRole('textbox', { name: 'Price', exact: true }).fill('3');
  await form.getByRole('textbox', { name: 'Stop price' }).fill('2.5');
  await expect(form.getByText('Cost (escrowed)')).toBeVisible();
  // With the teal Buy button ready to press.
  await expectNoSeriousA11yViolations(page);
  await form.screenshot({ path: info.outputPath('order-form-stop-limit.png') });
  await form.getByRole('button', { name: `Buy ${base.ticker}` }).click();
  await expect(page.getByRole('alert').filter({ hasText: /it waits for a trade at or above 2\.50/ })).toBeVisible();
  await expect.poll(() => balanceOf(page, trader.token, quote.currencyId)).toBe(97);

  const mine = page.getByRole('region', { name: 'My orders', exact: true });
  await mine.getByText('Stops', { exact: true }).click();
  const waiting = mine.getByRole('table', { name: 'My orders' }).getByRole('row', { name: /Buy order Untriggered/ });
  await expect(waiting).toHaveCount(1);
  await expect(waiting).toContainText(/Stop-limit at 2\.50/);
  await mine.scrollIntoViewIfNeeded();
  await mine.screenshot({ path: info.outputPath('my-orders-untriggered.png') });

  // Another member buys 1 at 2.00 through the API: a trade at 2.00 does not reach the stop...
  await apiPost(request, taker.token, '/api/cex/placeOrder', {
    pair: pair._id,
    buySide: true,
    initialAmount: '1',
    price: '2',
  });
  await expect(waiting).toHaveCount(1);
  // ...one at 3.00 does: the stop is placed and buys the last sell at 3.00.
  await apiPost(request, taker.token, '/api/cex/placeOrder', {
    pair: pair._id,
    buySide: true,
    initialAmount: '1',
    price: '3',
  });
  await expect(waiting).toHaveCount(0);
  await expect(mine.getByText('No orders Found')).toBeVisible();
  await mine.getByText('Filled', { exact: true }).click();
  const filled = mine.getByRole('table', { name: 'My orders' }).getByRole('row', { name: /Buy order Filled/ });
  await expect(filled).toHaveCount(1);
  await expect(filled).toContainText(/Stop-limit at 2\.50/);
  await mine.screenshot({ path: info.outputPath('my-orders-filled.png') });
  await expect.poll(() => balanceOf(page, trader.token, base.currencyId)).toBe(1);
  expect(await balanceOf(page, trader.token, quote.currencyId)).toBe(97);
});

test('a good-till-date order shows its time, and reads Expired once the server cancels it', async ({
  browser,
  isMobile,
  request,
}, info) => {
  const admin = await adminSignIn(request);
  const { base, quote, pair } = await newMarket(request, admin, 'G');
  const trader = await registerMember(request, uniqueNick('gtdtrade'));
  await mintAll(request, admin, [[trader.user.nickname, quote.currencyId, '100']]);
  const { page, form } = await openHub(browser, isMobile, trader, pair._id);

  // From the form: a limit buy of 1 at 2.00 that expires in an hour (the browser's local time).
  const inAnHour = await page.evaluate(() => {
    const d = new Date(Date.now() + 3_600_000);
    const two = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
  });
  await form.getByRole('radio', { name: `Buy ${base.ticker}` }).check();
  await form.getByRole('textbox', { name: 'Quantity' }).fill('1');
  await form.getByRole('textbox', { name: 'Price', exact: true }).fill('2');
  await form.getByLabel('Expires (optional)').fill(inAnHour);
  await form.getByRole('button', { name: `Buy ${base.ticker}` }).click();
  await expect(page.getByRole('alert').filter({ hasText: /Placed a buy order of 1/ })).toBeVisible();
  await expect.poll(() => balanceOf(page, trader.token, quote.currencyId)).toBe(98);
  const mine = page.getByRole('region', { name: 'My orders', exact: true });
  const table = mine.getByRole('table', { name: 'My orders' });
  await expect(table.getByRole('row', { name: /Buy order Placed/ })).toContainText(/Limit · GTC · Expires/);

  // Through the API: a buy of 2 at 3.00 that expires in two seconds; the expiry job cancels it.
  await apiPost(request, trader.token, '/api/cex/placeOrder', {
    pair: pair._id,
    buySide: true,
    initialAmount: '2',
    price: '3',
    expiresAt: new Date(Date.now() + 2000).toISOString(),
  });
  await expect.poll(() => balanceOf(page, trader.token, quote.currencyId)).toBe(92);
  await expect.poll(() => balanceOf(page, trader.token, quote.currencyId), { timeout: 15_000 }).toBe(98);
  await expect(table.getByRole('row', { name: /Buy order/ })).toHaveCount(1);
  await mine.getByText('Cancelled', { exact: true }).click();
  const expired = table.getByRole('row', { name: 'Buy order Expired' });
  await expect(expired).toHaveCount(1);
  await expect(expired).toContainText(/Limit · GTC · Expired/);
  await mine.scrollIntoViewIfNeeded();
  await mine.screenshot({ path: info.outputPath('my-orders-expired.png') });

  // The form's order, cancelled by its member, reads Cancelled beside it.
  await mine.getByText('Open', { exact: true }).click();
  await table
    .getByRole('row', { name: /Buy order Placed/ })
    .getByRole('button', { name: 'Cancel' })
    .click();
  await expect(page.getByRole('alert').filter({ hasText: 'Buy order cancelled' })).toBeVisible();
  await expect.poll(() => balanceOf(page, trader.token, quote.currencyId)).toBe(100);
  await mine.getByText('Cancelled', { exact: true }).click();
  await expect(table.getByRole('row', { name: 'Buy order Cancelled' })).toHaveCount(1);
  await expect(expired).toHaveCount(1);
});
