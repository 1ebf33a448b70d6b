/**
 * The marketplace (DESIGN §11.5), desktop and phone: a creator sets their collection's royalty (API), a
 * seller lists an item from Game Items (a price past the currency's precision is refused in words, then
 * the dialog says what they receive after the royalty), a buyer finds it in Browse by collection and name
 * (also through the By item view, grouped on the server) and buys it through the confirmation, the seller
 * sees it sold in My listings and cancels another listing; the balances moved by the price less the royalty. Screenshots of Browse, the buy dialog, the
 * sell dialog and My listings in the results.
 */
import { expect, type Page, test } from '@playwright/test';
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

/** Opens `page`'s Game Items by hand (on a phone they are part of My Assets, on the first tab). */
async function openGameItems(page: Page, isMobile: boolean): Promise<void> {
  if (isMobile) {
    await page.goto('/userbank');
  } else {
    await page.goto('/userbank?tab=bank');
    await page.getByRole('tab', { name: 'Game Items' }).click();
  }
}

/** The member's balance of `currencyId` as GET /api/user/me says it. */
async function balanceOf(page: Page, token: string, currencyId: number): Promise<string> {
  const res = await page.request.get('/api/user/me', { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  const { user } = (await res.json()) as { user: { balances: { currencyId: number; amount: string }[] } };
  return user.balances.find((b) => b.currencyId === currencyId)?.amount ?? '0';
}

test('an item is listed from Game Items, found and bought in Browse, and seen sold in My listings', async ({
  browser,
  isMobile,
  request,
}, info) => {
  test.setTimeout(150_000);
  const adminToken = await adminSignIn(request);
  const stamp = uniqueNick('').slice(-6);
  const { collection } = await apiPost<{ collection: { _id: string } }>(
    request,
    adminToken,
    '/api/inventory/createCollection',
    { name: `Market Fleet ${stamp}`, description: 'Ships of a browser test market' },
  );
  // The creator (here the admin, who made the collection) takes a tenth of each sale.
  await apiPost(request, adminToken, '/api/inventory/modifyCollection', {
    collectionId: collection._id,
    royalty: '0.1',
  });
  const coin = await createCurrency(request, adminToken, { prefix: 'MK', precision: 2 });
  const sellerNick = uniqueNick('seller');
  const buyerNick = uniqueNick('buyer');
  const seller = await registerMember(request, sellerNick);
  const buyer = await registerMember(request, buyerNick);
  const falcon = `Falcon ${stamp}`;
  const kestrel = `Kestrel ${stamp}`;
  for (const name of [falcon, kestrel]) {
    await apiPost(request, adminToken, '/api/inventory/createItem', {
      itemCollection: collection._id,
      owner: sellerNick,
      name,
      description: 'A ship for sale',
    });
  }
  await apiPost(request, adminToken, '/api/bank/mint', {
    recipientNickName: buyerNick,
    currencyId: coin.currencyId,
    amount: '100',
    note: 'market money',
  });

  // The seller lists the falcon from Game Items.
  const page = await newPage(browser, isMobile);
  await storeSession(page, seller);
  await openGameItems(page, isMobile);
  const cards = page.getByTestId('item-card');
  await expect(cards).toHaveCount(2);
  await cards
    .filter({ hasText: falcon })
    .getByRole('button', { name: `Sell ${falcon}` })
    .click();
  const sell = page.getByRole('dialog', { name: 'Sell an item' });
  await expect(sell).toContainText(falcon);
  await sell.getByRole('combobox', { name: /Currency/ }).click();
  await page.getByRole('option', { name: `Coin ${coin.ticker} (${coin.ticker})` }).click();
  const price = sell.getByRole('textbox', { name: /Price/ });
  await price.fill('12.345');
  await expect(sell).toContainText('Price can have at most 2 decimals');
  await price.fill('12.5');
  await page.screenshot({ path: info.outputPath('sell-dialog.png'), animations: 'disabled' });
  await expectNoSeriousA11yViolations(page);
  await price.press('Enter');
  await expect(sell.getByTestId('sell-receives')).toHaveText(
    `You receive 11.25 ${coin.ticker} after the collection's 10% royalty.`,
  );
  await page.screenshot({ path: info.outputPath('sell-dialog-listed.png'), animations: 'disabled' });
  await sell.getByRole('button', { name: 'Done' }).click();
  await expect(sell).toBeHidden();
  // The kestrel goes on sale too (API), to be cancelled later.
  const sellerItems = await apiPost<{ data: { itemId: string; name: string }[] }>(
    request,
    seller.token,
    '/api/inventory/getUserItemsGrouped',
    { filters: { itemCollection: collection._id }, paging: { limit: 10, page: 1 } },
  );
  const kestrelId = sellerItems.data.find((g) => g.name === kestrel)?.itemId;
  await apiPost(request, seller.token, '/api/market/createListing', {
    itemId: kestrelId,
    currencyId: coin.currencyId,
    price: '3',
  });

  // The buyer finds it by collection and name and buys it.
  const theirs = await newPage(browser, isMobile);
  await storeSession(theirs, buyer);
  await theirs.goto('/market');
  await expect(theirs.getByRole('heading', { name: 'Market', level: 1 })).toBeVisible();
  await theirs.getByRole('combobox', { name: 'Collection' }).click();
  await theirs.getByRole('option', { name: `Market Fleet ${stamp}` }).click();
  const listings = theirs.getByTestId('listing-card');
  await expect(listings).toHaveCount(2);
  // By item: every open listing of the collection by name, from the server, with the lowest price and the
  // count; the start of a name narrows it (the sort does not apply there); a name lists all of it.
  await theirs.getByText('By item', { exact: true }).click();
  const byItem = theirs.getByRole('table', { name: 'Listings by item' });
  await expect(byItem.getByTestId('item-group')).toHaveCount(2);
  await expect(byItem.getByRole('row', { name: new RegExp(kestrel) })).toContainText(`3.00 ${coin.ticker}1`);
  await expect(byItem.getByRole('row', { name: new RegExp(falcon) })).toContainText(`12.50 ${coin.ticker}1`);
  await expect(theirs.getByRole('combobox', { name: 'Sort' })).toBeDisabled();
  await theirs.screenshot({ path: info.outputPath('market-by-item.png'), fullPage: true });
  await theirs.getByRole('textbox', { name: 'Name starts with' }).fill(falcon.slice(0, 4).toLowerCase());
  await expect(byItem.getByTestId('item-group')).toHaveCount(1);
  await byItem.getByRole('button', { name: falcon }).click();
  await expect(listings).toHaveCount(1);
  await expect(theirs.getByRole('textbox', { name: 'Name starts with' })).toHaveValue(falcon);
  await theirs.getByRole('textbox', { name: 'Name starts with' }).fill('Falc');
  await expect(listings).toHaveCount(1);
  await expect(listings).toContainText(falcon);
  await expect(listings).toContainText(`12.50 ${coin.ticker}`);
  await expect(listings).toContainText(`Seller: ${sellerNick}`);
  await theirs.screenshot({ path: info.outputPath('market-browse.png'), fullPage: true });
  await expectNoSeriousA11yViolations(theirs);
  await listings.getByRole('button', { name: `Buy ${falcon} for 12.50 ${coin.ticker}` }).click();
  const buy = theirs.getByRole('dialog', { name: 'Buy an item' });
  await expect(buy.getByTestId('buy-pay')).toHaveText(`You pay 12.50 ${coin.ticker}`);
  await expect(buy).toContainText(`Available: 100.00 ${coin.ticker}`);
  await expect(buy).toContainText(`Sold by ${sellerNick}`);
  await theirs.screenshot({ path: info.outputPath('buy-dialog.png'), animations: 'disabled' });
  await buy.getByRole('button', { name: `Buy for 12.50 ${coin.ticker}` }).click();
  await expect(theirs.getByText(`You bought ${falcon} for 12.50 ${coin.ticker}`)).toBeVisible();
  await expect(buy).toBeHidden();
  await expect(theirs.getByTestId('market-empty')).toHaveText('No open listings match these filters.');

  // The seller sees it sold and cancels the kestrel.
  await page.goto('/market');
  await page.getByRole('tab', { name: 'My listings' }).click();
  const mine = page.getByTestId('my-listing');
  await expect(mine).toHaveCount(2);
  const sold = mine.filter({ hasText: falcon });
  await expect(sold).toContainText('Sold');
  await expect(sold).toContainText(`Bought by ${buyerNick}`);
  await expect(sold).toContainText(`You received 11.25 ${coin.ticker} after the collection's 10% royalty`);
  const open = mine.filter({ hasText: kestrel });
  await expect(open).toContainText('Open');
  await page.screenshot({ path: info.outputPath('my-listings.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page);
  await open.getByRole('button', { name: `Cancel listing of ${kestrel}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel the listing?' });
  await confirm.getByRole('button', { name: 'Cancel listing' }).click();
  await expect(page.getByText(`The listing of ${kestrel} is cancelled`)).toBeVisible();
  await expect(open).toContainText('Cancelled');
  await expect(open.getByRole('button', { name: /Cancel listing/ })).toHaveCount(0);

  // The money moved: the price left the buyer, the seller got it less the royalty, the creator the royalty;
  // the 100 minted are all still there.
  expect(await balanceOf(page, buyer.token, coin.currencyId)).toBe('87.50');
  expect(await balanceOf(page, seller.token, coin.currencyId)).toBe('11.25');
  expect(await balanceOf(page, adminToken, coin.currencyId)).toBe('1.25');
});
