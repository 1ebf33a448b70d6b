/**
 * What a newcomer tripped over, on a slow machine and while an admin works:
 * - §4: the Quantum Hub and My account never show a blank page while their code and data load: within a
 *   second the page's frame (a "Loading page" status) shows, then the page's heading with a placeholder
 *   for each panel whose data is still on its way, then the data.
 * - §5: a currency created after the member opened My Tokens, and minted to them, appears there without
 *   a reload (the socket pushes it; the day-long cache of the currency list no longer hides it), a change
 *   to it too, and even with that push lost (a balance in an unknown currency refetches the list).
 * Each test leaves screenshots under .cache/e2e-results/screens for a person to look at.
 */
import { type APIRequestContext, expect, type Page, type TestInfo, test } from '@playwright/test';
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

/** How long every script but the first paint's waits, as on a loaded machine. */
const CHUNK_DELAY_MS = 3000;
/** How long every API answer waits. */
const API_DELAY_MS = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The scripts of the first paint: the entry and what index.html preloads (these come at once). */
async function firstPaintScripts(request: APIRequestContext): Promise<Set<string>> {
  const html = await (await request.get('/')).text();
  return new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] as string));
}

/** Slows `page` down: every later script by CHUNK_DELAY_MS, every API answer by API_DELAY_MS. */
async function throttle(page: Page, eager: Set<string>): Promise<void> {
  const later = async (ms: number, go: () => Promise<void>) => {
    await sleep(ms);
    await go().catch(() => {}); // the page may have closed meanwhile
  };
  await page.route('**/api/**', (route) => later(API_DELAY_MS, () => route.continue()));
  await page.route('**/assets/*.js', (route) => {
    const path = new URL(route.request().url()).pathname;
    return eager.has(path) ? route.continue() : later(CHUNK_DELAY_MS, () => route.continue());
  });
}

const post = apiPost;

const shot = (page: Page, info: TestInfo, name: string) =>
  page.screenshot({ path: `.cache/e2e-results/screens/${name}-${info.project.name}.png` });

for (const { path, heading, panel, loaded } of [
  {
    path: '/quantumhub',
    heading: 'Quantum Hub',
    panel: 'Loading trading pairs',
    // The combobox, not its label: Mantine's listbox, when mounted, is labelled by the same label.
    loaded: (page: Page) =>
      page.getByText('No trading pairs yet').or(page.getByRole('combobox', { name: 'Trading pair' })),
  },
  {
    path: '/userbank?tab=bank',
    heading: 'My Tokens',
    panel: 'Loading my tokens',
    loaded: (page: Page) => page.getByText('You have no tokens.'),
  },
]) {
  test(`${path} shows its frame within a second, then its panels' placeholders, on a slow machine`, async ({
    browser,
    isMobile,
    request,
  }, info) => {
    const eager = await firstPaintScripts(request);
    const member = await registerMember(request, uniqueNick('slow'));
    const page = await newPage(browser, isMobile);
    await storeSession(page, member);
    await throttle(page, eager);
    const name = path.slice(1).replace(/\W.*/, '');

    await page.goto(path, { waitUntil: 'domcontentloaded' });
    // Within a second: the page's frame (or already its heading), never just the header over nothing.
    const main = page.getByRole('main');
    await expect(
      main.getByRole('status', { name: 'Loading page' }).or(main.getByRole('heading', { name: heading })),
    ).toBeVisible({ timeout: 1000 });
    await shot(page, info, `slow-${name}-frame`);
    await expectNoSeriousA11yViolations(page);

    // The page itself, while its data is still on its way: each panel a placeholder.
    await expect(main.getByRole('heading', { name: heading })).toBeVisible({ timeout: 20_000 });
    await expect(main.getByRole('status', { name: panel })).toBeVisible();
    await shot(page, info, `slow-${name}-panels`);
    await expectNoSeriousA11yViolations(page);

    // Then the data.
    await expect(loaded(page)).toBeVisible({ timeout: 20_000 });
    await expect(main.getByRole('status', { name: panel })).toHaveCount(0);
  });
}

/** Opens My Tokens for `member` and waits until its socket is signed in (so pushes reach it). */
async function openMyTokens(page: Page, member: { token: string; user: unknown }): Promise<void> {
  await storeSession(page, member);
  const signedIn = page
    .waitForEvent('websocket')
    .then((ws) => ws.waitForEvent('framereceived', { predicate: (f) => String(f.payload).includes('"type":"auth"') }));
  await page.goto('/userbank?tab=bank');
  await expect(page.getByText('You have no tokens.')).toBeVisible();
  await signedIn;
}

test('a currency created and minted after My Tokens opened shows there without a reload, and its change too', async ({
  browser,
  isMobile,
  request,
}, info) => {
  const admin = await adminSignIn(request);
  const nick = uniqueNick('newcur');
  const member = await registerMember(request, nick);
  const page = await newPage(browser, isMobile);
  await openMyTokens(page, member);

  const { currencyId, ticker } = await createCurrency(request, admin, { prefix: 'N', name: 'Comet Dust' });
  await post(request, admin, '/api/bank/mint', {
    recipientNickName: nick,
    currencyId,
    amount: '12.5',
    note: 'welcome gift',
  });

  const token = page.getByTestId(`token-${ticker}`);
  await expect(token.getByText('Comet Dust')).toBeVisible();
  await expect(page.getByTestId(`balance-${ticker}`)).toHaveText(`12.50 ${ticker}`);
  await expect(token.getByRole('button', { name: `Transfer ${ticker}` })).toBeVisible();

  // The admin renames it and stops its transfers: the page follows, still without a reload.
  await post(request, admin, '/api/bank/modifyCurrency', {
    currencyId,
    name: 'Comet Dust Classic',
    canTransfer: false,
    canDeposit: true,
  });
  await expect(token.getByText('Comet Dust Classic')).toBeVisible();
  await expect(token.getByRole('button', { name: `Transfer ${ticker}` })).toHaveCount(0);
  await shot(page, info, 'new-currency');
  await expectNoSeriousA11yViolations(page);
});

test('with the currency push lost, a balance in an unknown currency fetches the list again', async ({
  browser,
  isMobile,
  request,
}) => {
  const admin = await adminSignIn(request);
  const nick = uniqueNick('lostcur');
  const member = await registerMember(request, nick);
  const page = await newPage(browser, isMobile);
  // The socket passes everything but the `currencies` messages.
  await page.routeWebSocket('**/api/ws', (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      if (typeof message === 'string' && message.includes('"type":"currencies"')) return;
      ws.send(message);
    });
  });
  await openMyTokens(page, member);

  const made = await createCurrency(request, admin, { prefix: 'L', name: 'Lost Signal', precision: 0 });
  await post(request, admin, '/api/bank/mint', {
    recipientNickName: nick,
    currencyId: made.currencyId,
    amount: '7',
    note: 'welcome gift',
  });
  await expect(page.getByTestId(`balance-${made.ticker}`)).toHaveText(`7 ${made.ticker}`);
});
