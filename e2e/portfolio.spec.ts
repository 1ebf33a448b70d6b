/**
 * The dashboard's portfolio (DESIGN §11.4 `portfolio`), at desktop and phone size: the member picks the
 * currency to value in from the keyboard, sees the total, each holding at the last traded price (funds in
 * an open order still counted), "No price path to X" for a currency no pair prices, and the 30-day
 * chart; a member holding nothing sees the empty state. Screenshots of the card in the results.
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

function portfolioCard(page: Page) {
  return page.getByRole('region', { name: 'Portfolio' });
}

test('values the holdings in a chosen currency, with the 30-day chart, and an empty state', async ({
  browser,
  isMobile,
  request,
}, info) => {
  const admin = await adminSignIn(request);
  const base = await createCurrency(request, admin, { prefix: 'PB' });
  const quote = await createCurrency(request, admin, { prefix: 'PQ' });
  const loner = await createCurrency(request, admin, { prefix: 'PL', precision: 0 });
  const { pair } = await apiPost<{ pair: { _id: string } }>(request, admin, '/api/cex/createPair', {
    buyCurrency: base.currencyId,
    sellCurrency: quote.currencyId,
    canBuy: true,
    canSell: true,
  });
  const funded = async (prefix: string, holdings: Array<[number, string]>) => {
    const m = await registerMember(request, uniqueNick(prefix));
    for (const [currencyId, amount] of holdings)
      await apiPost(request, admin, '/api/bank/mint', {
        recipientNickName: m.user.nickname,
        currencyId,
        amount,
        note: 'portfolio e2e',
      });
    return m;
  };
  const place = (token: string, buySide: boolean, initialAmount: string, price: string) =>
    apiPost(request, token, '/api/cex/placeOrder', { pair: pair._id, buySide, initialAmount, price });
  // The last trade prices a PB at 2.5 PQ.
  const seller = await funded('pfs', [[base.currencyId, '1']]);
  const buyer = await funded('pfb', [[quote.currencyId, '10']]);
  await place(seller.token, false, '1', '2.5');
  await place(buyer.token, true, '1', '2.5');

  const member = await funded('pfm', [
    [quote.currencyId, '1000'],
    [base.currencyId, '4'],
    [loner.currencyId, '3'],
  ]);
  await place(member.token, true, '10', '2'); // 20 PQ set aside, still the member's

  const page = await newPage(browser, isMobile);
  await storeSession(page, member);
  await page.goto('/dashboard');
  const card = portfolioCard(page);
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByRole('combobox', { name: 'Value in' })).toBeVisible();

  // Valued in Credits first: nothing here trades against them.
  await expect(card.getByTestId('portfolio-value')).toHaveText('0.00 CR');
  // From the keyboard: focus the picker, replace its text with the ticker, take the option.
  const picker = card.getByRole('combobox', { name: 'Value in' });
  await picker.focus();
  // Focus opens the list (the picker's code loads with that first focus).
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(quote.ticker);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(card.getByTestId('portfolio-value')).toHaveText(`1,010.00 ${quote.ticker}`);
  const table = card.getByRole('table', { name: 'Holdings' });
  await expect(table.getByRole('row', { name: new RegExp(`^${base.ticker}`) })).toContainText('10.00');
  await expect(table.getByRole('row', { name: new RegExp(`^${quote.ticker}`) })).toContainText('1,000.00');
  await expect(table.getByRole('row', { name: new RegExp(`^${loner.ticker}`) })).toContainText(
    `No price path to ${quote.ticker}`,
  );
  // The price column is there on a desktop and folded away on a phone.
  await expect(table.getByRole('columnheader', { name: `Price (${quote.ticker})` })).toBeVisible({
    visible: !isMobile,
  });
  // The chart is drawn once scrolled to (below the fold on a phone).
  await card.getByText(/last 30 days/).scrollIntoViewIfNeeded();
  await expect(card.locator('.recharts-surface')).toBeVisible();
  // Nothing of the card sticks out of the window.
  const box = await card.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
  await expectNoSeriousA11yViolations(page);
  await card.screenshot({ path: info.outputPath('portfolio.png') });

  // A member holding nothing.
  const empty = await registerMember(request, uniqueNick('pfe'));
  await storeSession(page, empty);
  await page.goto('/dashboard');
  await portfolioCard(page).scrollIntoViewIfNeeded();
  await expect(portfolioCard(page).getByText(/You hold nothing yet/)).toBeVisible();
  await portfolioCard(page).screenshot({ path: info.outputPath('portfolio-empty.png') });
  await page.context().close();
});
