/**
 * Gifts (DESIGN §11.5), desktop and phone: a member opens Gift on a Game Items card, a wrong nickname is
 * refused in the dialog, the right one sends the item (keyboard only), it leaves the sender's list, and the
 * recipient sees it in their own Game Items. Screenshots of the dialog in the results.
 */
import { expect, type Page, test } from '@playwright/test';
import {
  adminSignIn,
  apiPost,
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

test('a member gifts an item: a wrong nickname is refused, then it moves to the recipient', async ({
  browser,
  isMobile,
  request,
}, info) => {
  test.setTimeout(120_000);
  const adminToken = await adminSignIn(request);
  const stamp = uniqueNick('').slice(-6);
  const { collection } = await apiPost<{ collection: { _id: string } }>(
    request,
    adminToken,
    '/api/inventory/createCollection',
    { name: `Gift Fleet ${stamp}`, description: 'Ships of a browser test fleet' },
  );
  const giverNick = uniqueNick('giver');
  const takerNick = uniqueNick('taker');
  const giver = await registerMember(request, giverNick);
  const taker = await registerMember(request, takerNick);
  for (const name of ['Gift Falcon', 'Kept Kestrel']) {
    await apiPost(request, adminToken, '/api/inventory/createItem', {
      itemCollection: collection._id,
      owner: giverNick,
      name,
      description: 'A ship to give away',
      metadata: { rarity: 'Rare' },
    });
  }

  const page = await newPage(browser, isMobile);
  await storeSession(page, giver);
  await openGameItems(page, isMobile);
  const cards = page.getByTestId('item-card');
  await expect(cards).toHaveCount(2);
  await page.screenshot({ path: info.outputPath('game-items-gift.png'), fullPage: true });
  await cards.filter({ hasText: 'Gift Falcon' }).getByRole('button', { name: 'Gift Gift Falcon' }).click();

  const dialog = page.getByRole('dialog', { name: 'Gift an item' });
  await expect(dialog).toContainText('Gift Falcon');
  await expect(dialog).toContainText('Your only one goes.');
  const field = dialog.getByRole('textbox', { name: /Recipient nickname/ });
  await expect(field).toBeFocused();
  await page.screenshot({ path: info.outputPath('gift-dialog.png'), animations: 'disabled' });
  await expectNoSeriousA11yViolations(page);

  await field.fill('nobody404x');
  await field.press('Enter');
  await expect(dialog.getByRole('alert')).toHaveText('Recipient not found');
  await page.screenshot({ path: info.outputPath('gift-dialog-refused.png'), animations: 'disabled' });

  await field.fill(takerNick);
  await field.press('Enter');
  await expect(page.getByText(`Gifted Gift Falcon to ${takerNick}`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText('Kept Kestrel');

  // The recipient follows their notification's link, which opens Game Items at either size.
  const theirs = await newPage(browser, isMobile);
  await storeSession(theirs, taker);
  await theirs.goto('/userbank?tab=bank&holdings=items');
  const theirCards = theirs.getByTestId('item-card');
  await expect(theirCards).toHaveCount(1);
  await expect(theirCards).toContainText('Gift Falcon');
  await expect(theirs.getByRole('combobox', { name: 'Collection' })).toHaveValue(`Gift Fleet ${stamp} (1 item)`);
});
