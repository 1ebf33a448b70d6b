/**
 * What a newcomer tripped over, at the size where it showed: every word a member reads whole.
 * - Game Items: a long ship name and its count are never cut to "Alpha Co…" or "×‥" (§1).
 * - Quantum Hub, My orders: side and state in full words (Buy/Sell, Placed/Partly filled/Filled/
 *   Cancelled), never "S…" or "PLAC…" (§2).
 * Each test leaves a screenshot under .cache/e2e-results/screens for a person to look at.
 */
import { expect, type Locator, test } from '@playwright/test';
import { adminSignIn, apiPost, createCurrency, newPage, registerMember, storeSession, uniqueNick } from './fixtures.ts';

/**
 * True when the element shows all of its text: nothing clipped or replaced by an ellipsis, and the whole
 * of it inside every scrolling or clipping box around it (no sideways scroll needed to read it).
 */
async function showsWhole(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const clipped = (e: Element) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1;
    if (clipped(el) || [...el.querySelectorAll('*')].some(clipped)) return false;
    const r = el.getBoundingClientRect();
    if (r.left < 0 || r.right > window.innerWidth + 1) return false;
    for (let box = el.parentElement; box; box = box.parentElement) {
      const { overflowX } = getComputedStyle(box);
      if (overflowX === 'visible') continue;
      const b = box.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1) return false;
    }
    return true;
  });
}

const post = apiPost;

test('Game Items shows a long ship name and its count whole', async ({ browser, isMobile, request }, info) => {
  const admin = await adminSignIn(request);
  const creatorNick = uniqueNick('yard');
  await registerMember(request, creatorNick);
  await post(request, admin, '/api/user/administrateUser', { nickname: creatorNick, role: 'creator', active: true });
  const login = await request.post('/api/user/login', {
    data: { nickOrEmail: creatorNick, password: 'Str0ng!Passw0rd' },
  });
  const creator = (await login.json()) as { token: string };
  const collectionName = `Alpha Fleet ${uniqueNick('c')}`;
  const made = (await post(request, creator.token, '/api/inventory/createCollection', { name: collectionName })) as {
    collection: { _id: string };
  };
  const nick = uniqueNick('pilot');
  const member = await registerMember(request, nick);
  const longName = 'Alpha Corvette Interceptor Mark II of the Outer Rim Patrol Wing';
  for (let i = 0; i < 12; i++) {
    await post(request, creator.token, '/api/inventory/createItem', {
      itemCollection: made.collection._id,
      owner: nick,
      name: longName,
      description: 'A long-range corvette',
      metadata: { rarity: 'Rare', class: 'corvette' },
      variabledata: { fuel: 80 },
    });
  }

  const page = await newPage(browser, isMobile);
  await storeSession(page, member);
  if (isMobile) {
    await page.goto('/userbank');
  } else {
    await page.goto('/userbank?tab=bank');
    await page.getByRole('tab', { name: 'Game Items' }).click();
  }
  await page.getByRole('combobox', { name: 'Collection' }).click();
  await page.getByRole('option', { name: collectionName }).click();
  const card = page.getByTestId('item-card').filter({ hasText: longName });
  const name = card.getByText(longName, { exact: true });
  await expect(name).toBeVisible();
  await expect(card.getByText('×12')).toBeVisible();
  expect(await showsWhole(name)).toBe(true);
  expect(await showsWhole(card.getByText('×12'))).toBe(true);
  await card.screenshot({ path: `.cache/e2e-results/screens/game-items-${info.project.name}.png` });
});

test('My orders names side and state in full words', async ({ browser, isMobile, request }, info) => {
  const admin = await adminSignIn(request);
  // A pair of its own, so other tests' orders do not matter.
  const base = (await createCurrency(request, admin, { prefix: 'B' })).currencyId;
  const quote = (await createCurrency(request, admin, { prefix: 'Q' })).currencyId;
  const { pair } = (await post(request, admin, '/api/cex/createPair', {
    buyCurrency: base,
    sellCurrency: quote,
    canBuy: true,
    canSell: true,
    fee: '0',
    feeCollector: '',
  })) as { pair: { _id: string } };
  const trader = await registerMember(request, uniqueNick('trader'));
  const other = await registerMember(request, uniqueNick('other'));
  for (const [nick, currencyId] of [
    [trader.user.nickname, base],
    [trader.user.nickname, quote],
    [other.user.nickname, base],
  ] as const) {
    await post(request, admin, '/api/bank/mint', {
      recipientNickName: nick,
      currencyId,
      amount: '1000',
      note: 'for orders',
    });
  }
  const place = (token: string, buySide: boolean, amount: string, price: string) =>
    post(request, token, '/api/cex/placeOrder', { pair: pair._id, buySide, initialAmount: amount, price }) as Promise<{
      order: { _id: string };
    }>;
  // A buy partly filled by another member's sell, a resting sell, and a cancelled sell.
  await place(trader.token, true, '10', '2');
  await place(other.token, false, '4', '2');
  await place(trader.token, false, '5', '9');
  const cancelled = await place(trader.token, false, '1', '12');
  await post(request, trader.token, '/api/cex/cancelOrder', { orderId: cancelled.order._id });

  const page = await newPage(browser, isMobile);
  await storeSession(page, trader);
  await page.addInitScript((p) => localStorage.setItem('quantumhubPair', p), pair._id);
  await page.goto('/quantumhub');
  const table = page.getByRole('table', { name: 'My orders' });
  // Open orders first: the partly filled buy and the resting sell.
  await expect(table.getByRole('row')).toHaveCount(3); // header + 2 orders
  for (const word of ['Buy', 'Sell', 'Partly filled', 'Placed']) {
    const badge = table.getByText(word, { exact: true }).first();
    await expect(badge).toBeVisible();
    expect(await showsWhole(badge), `"${word}" is cut`).toBe(true);
  }
  const cancel = table.getByRole('button', { name: 'Cancel' }).first();
  expect(await showsWhole(cancel), 'Cancel is out of sight').toBe(true);
  await table.screenshot({ path: `.cache/e2e-results/screens/my-orders-${info.project.name}.png` });
  // The cancelled sell under Cancelled.
  await page.getByRole('region', { name: 'My orders', exact: true }).getByText('Cancelled', { exact: true }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
  const cancelledBadge = table.getByText('Cancelled', { exact: true });
  await expect(cancelledBadge).toBeVisible();
  expect(await showsWhole(cancelledBadge), '"Cancelled" is cut').toBe(true);
});

test('the history shows the signed amount, category and note without scrolling sideways', async ({
  browser,
  isMobile,
  request,
}, info) => {
  const admin = await adminSignIn(request);
  const alice = await registerMember(request, uniqueNick('hist'));
  const bob = await registerMember(request, uniqueNick('hist'));
  await post(request, admin, '/api/bank/mint', {
    recipientNickName: alice.user.nickname,
    currencyId: 1,
    amount: '100',
    note: 'welcome gift',
  });
  await post(request, alice.token, '/api/bank/p2pTransfer', {
    recipientNickName: bob.user.nickname,
    currencyId: 1,
    amount: '10',
    note: 'for the fuel',
  });

  const page = await newPage(browser, isMobile);
  await storeSession(page, alice);
  await page.goto('/userbank?tab=logs');
  for (const text of ['+100.00 SD', '−9.90 SD', '−0.10 SD', 'Transfer', 'for the fuel', 'welcome gift']) {
    const shown = page.getByText(text, { exact: true }).first();
    await expect(shown).toBeVisible();
    expect(await showsWhole(shown), `"${text}" is out of sight`).toBe(true);
  }
  await page.screenshot({ path: `.cache/e2e-results/screens/history-${info.project.name}.png` });
});
