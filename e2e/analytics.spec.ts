/**
 * /analytics with many currencies: one supply call for the whole page (not one per currency), the
 * trading pairs' charts (below the fold) fetched and drawn only once scrolled to, and time-axis labels
 * whole inside their chart ("22:00", never "22:0" cut at the edge). Desktop and phone; screenshots kept.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { adminSignIn, apiPost, createCurrency, newPage, PASSWORD, uniqueNick } from './fixtures.ts';

/** The machine running these is shared and busy: waits get more room than the default (never a timing assertion). */
const slow = expect.configure({ timeout: 30_000 });

/** Every x-axis label of the charts drawn on `page` that sticks out of its chart's frame. */
async function clippedTicks(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const svg of document.querySelectorAll<SVGSVGElement>('svg.recharts-surface')) {
      const frame = svg.getBoundingClientRect();
      for (const tick of svg.querySelectorAll<SVGTextElement>('.recharts-xAxis .recharts-cartesian-axis-tick-value')) {
        const box = tick.getBoundingClientRect();
        if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5) out.push(tick.textContent ?? '');
      }
    }
    return out;
  });
}

/**
 * Scrolls to a supply card until its chart is drawn: cards above it may still grow while the page settles
 * and push it back out of view before it was seen, as a member would scroll again.
 */
async function scrolledToAndDrawn(card: Locator): Promise<void> {
  await expect(async () => {
    await card.scrollIntoViewIfNeeded();
    await expect(card.locator('svg.recharts-surface')).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
}

test('analytics: one supply call, pairs drawn when scrolled to, axis labels whole', async ({
  browser,
  isMobile,
}, testInfo) => {
  test.setTimeout(300_000);
  const page = await newPage(browser, isMobile);
  const adminToken = await adminSignIn(page.request);
  const nick = uniqueNick('ana');
  const res = await page.request.post('/api/user/register', {
    data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
  });
  expect(res.ok()).toBe(true);
  // Twelve currencies with a supply, and a pair of two of them.
  const made: Array<{ currencyId: number; ticker: string }> = [];
  for (let i = 0; i < 12; i++) {
    const c = await createCurrency(page.request, adminToken, { prefix: 'AN' });
    await apiPost(page.request, adminToken, '/api/bank/mint', {
      recipientNickName: nick,
      currencyId: c.currencyId,
      amount: String(1000 * (i + 1)),
      note: 'analytics test',
    });
    made.push(c);
  }
  const [buy, sell] = made;
  await apiPost(page.request, adminToken, '/api/cex/createPair', {
    buyCurrency: buy?.currencyId,
    sellCurrency: sell?.currencyId,
    canBuy: true,
    canSell: true,
    fee: '0.01',
    feeCollector: '',
  });

  const supplyCalls: string[] = [];
  const candleCalls: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/api/bank/supplyHistor')) supplyCalls.push(path);
    if (path === '/api/cex/getCandles') candleCalls.push(path);
  });
  await page.goto('/analytics');
  const first = page.getByRole('region', { name: `${`Coin ${made[0]?.ticker}`} supply` });
  await scrolledToAndDrawn(first);
  // One call answers every currency.
  expect(supplyCalls).toEqual(['/api/bank/supplyHistories']);
  // The pairs sit below the twelve currencies: nothing fetched for them yet.
  expect(candleCalls).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('analytics-top.png') });

  // Scrolled to, a pair's card loads and draws.
  const pairs = page.getByRole('heading', { name: 'Trading pairs' });
  await pairs.scrollIntoViewIfNeeded();
  const pairCard = page.getByRole('region', { name: /analytics$/ }).first();
  await pairCard.scrollIntoViewIfNeeded();
  await slow(pairCard).toBeVisible();
  await expect.poll(() => candleCalls.length).toBeGreaterThan(0);

  // Every drawn chart's time labels sit whole inside it, hourly and daily.
  await first.scrollIntoViewIfNeeded();
  expect(await clippedTicks(page)).toEqual([]);
  await first.screenshot({ path: testInfo.outputPath('analytics-hourly-chart.png') });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByText('Daily', { exact: true }).click();
  await scrolledToAndDrawn(first);
  expect(await clippedTicks(page)).toEqual([]);
  expect(supplyCalls).toEqual(['/api/bank/supplyHistories', '/api/bank/supplyHistories']);
  await first.screenshot({ path: testInfo.outputPath('analytics-daily-chart.png') });
  await page.context().close();
});
