/**
 * Synth chips in a browser, desktop and phone: a visitor sees the sale and a prompt to
 * log in; a member with Credits buys chips, opens them with the slider and Commence, sees the ships just
 * created, and finds them in Game Items under Alpha Ships.
 */
import { expect, test } from '@playwright/test';
import {
  adminSignIn,
  expectNoSeriousA11yViolations,
  newPage,
  registerMember,
  storeSession,
  uniqueNick,
} from './fixtures.ts';

test('buy synth chips, open them, see the ships', async ({ browser, isMobile, request }, testInfo) => {
  const visitor = await newPage(browser, isMobile);
  await visitor.goto('/synthchips');
  await expect(visitor.getByTestId('chips-remaining')).toContainText('left');
  await expect(visitor.getByRole('link', { name: 'Log in to buy synth chips' })).toBeVisible();
  await expect(visitor.getByRole('table', { name: 'Drop table' })).toContainText('Legendary');
  await expectNoSeriousA11yViolations(visitor);

  const nick = uniqueNick('chipper');
  const member = await registerMember(request, nick);
  const minted = await request.post('/api/bank/mint', {
    headers: { authorization: `Bearer ${await adminSignIn(request)}` },
    data: { recipientNickName: nick, currencyId: 3, amount: '1000', note: 'for chips' },
  });
  expect(minted.ok()).toBe(true);

  const page = await newPage(browser, isMobile);
  await storeSession(page, member);
  await page.goto('/synthchips');
  await page.getByLabel('Quantity').fill('2');
  await page.getByRole('button', { name: 'Buy', exact: true }).click();
  await expect(page.getByText('Bought 2 synth chip(s)')).toBeVisible();
  await expect(page.getByTestId('chips-held')).toHaveText('2');
  await page.getByRole('link', { name: 'Open Synth Chips' }).click();
  await expect(page).toHaveURL(/\/openasc$/);
  await expect(page.getByTestId('chips-held')).toHaveText('2');
  const slider = page.getByRole('slider', { name: 'Chips to open' });
  await slider.focus();
  await slider.press('ArrowRight');
  await page.getByRole('button', { name: 'Commence' }).click();
  await expect(page.getByText('Opened 2 synth chip(s): 10 ships')).toBeVisible();
  await expect(page.getByTestId('created-ship')).toHaveCount(10);
  await expect(page.getByText('You hold no synth chips.')).toBeVisible();

  // The ships are in Game Items under Alpha Ships.
  if (isMobile) {
    await page.goto('/userbank');
  } else {
    await page.goto('/userbank?tab=bank');
    await page.getByRole('tab', { name: 'Game Items' }).click();
  }
  // The only collection they hold, chosen already, with its count.
  await expect(page.getByRole('combobox', { name: 'Collection' })).toHaveValue('Alpha Ships (10 items)');
  const card = page.getByTestId('item-card').first();
  await expect(card).toContainText('Alpha ');
  // "An uncommon …", "An epic …", "A rare …": the article fits the rarity.
  await card.getByRole('button', { name: 'Details' }).click();
  const details = page.getByRole('dialog');
  await expect(details.getByText(/ from an Alpha synth chip$/)).toBeVisible();
  await expect(details.getByText(/^A [aeiou]/i)).toHaveCount(0);
  await page.keyboard.press('Escape');

  // The drop table's rarity badges show their whole word at any size.
  await page.goto('/synthchips');
  const badges = page.getByTestId('drop-rarity');
  await expect(badges).toHaveCount(5);
  for (const badge of await badges.all()) {
    const whole = await badge.evaluate((node) => {
      const label = (node.querySelector('.mantine-Badge-label') ?? node) as HTMLElement;
      return label.scrollWidth <= label.clientWidth + 1;
    });
    expect(whole, (await badge.textContent()) ?? 'rarity badge').toBe(true);
  }
  await page.screenshot({ path: testInfo.outputPath('drop-table.png'), fullPage: true });
});
