/**
 * What a newcomer tripped over in their first hour, on desktop and phone:
 * a. an unknown address says the page does not exist and links home (and to the dashboard when signed in);
 * b. the home roadmap shows the shipped features as live;
 * c. /provider thanks only for a purchase of the signed-in member, else says plainly there is none;
 * d. Checkout Control shows a package's state and the action ("Active · Deactivate");
 * e. Cex Control's Status column always says something (Trading or Frozen, buys and sells);
 * f. one money format: "1,000.00 CR", the ticker after the amount, wherever an amount is shown;
 * g. opened ships show their rarity in its colour and an image of their class;
 * h. the desktop header shows each menu's label beside its icon.
 * Each test leaves screenshots under .cache/screens-newcomer-small for a person to look at.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  acceptDisclaimerUpFront,
  adminSignIn,
  apiPost,
  createCurrency,
  expectNoSeriousA11yViolations,
  newPage,
  registerMember,
  storeSession,
  uniqueNick,
} from './fixtures.ts';

// Outside Playwright's output folder, which every run empties.
const SCREENS = '.cache/screens-newcomer-small';

const post = apiPost;

async function shot(page: Page, name: string, project: string): Promise<void> {
  await page.screenshot({ path: `${SCREENS}/${name}-${project}.png`, fullPage: true });
}

/** A published (and active) package of `amount` Credits, created by the admin through the API. */
async function publishedPackage(request: APIRequestContext, admin: string, name: string, amount: string) {
  const { package: pkg } = (await post(request, admin, '/api/checkout/packages/create', {
    name,
    description: 'Credits for a newcomer test',
    cost: '9.99',
    amount,
  })) as { package: { _id: string } };
  await post(request, admin, '/api/checkout/packages/publish', { objectId: pkg._id });
  return pkg;
}

test('a: an unknown address says the page does not exist and links home', async ({
  browser,
  isMobile,
  request,
}, info) => {
  const visitor = await newPage(browser, isMobile);
  await visitor.goto('/no/such/page');
  await expect(visitor.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(visitor.getByText('This page does not exist')).toBeVisible();
  await expect(visitor.getByText(/coming soon/i)).toHaveCount(0);
  await expect(visitor.getByRole('main').getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
  await expect(visitor.getByRole('main').getByRole('link', { name: 'Go to your dashboard' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(visitor);
  await shot(visitor, 'not-found-visitor', info.project.name);

  const member = await newPage(browser, isMobile);
  await storeSession(member, await registerMember(request, uniqueNick('lost')));
  await member.goto('/nowhere');
  await expect(member.getByText('This page does not exist')).toBeVisible();
  await expect(member.getByRole('main').getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
  const dashboard = member.getByRole('main').getByRole('link', { name: 'Go to your dashboard' });
  await expect(dashboard).toHaveAttribute('href', '/dashboard');
  await shot(member, 'not-found-member', info.project.name);

  // The placeholders SPEC §2 names are still coming soon.
  await member.goto('/designer');
  await expect(member.getByText(/coming soon/i)).toBeVisible();
});

test('b: the home roadmap shows the shipped features as live', async ({ browser, isMobile }, info) => {
  const page = await newPage(browser, isMobile);
  await page.goto('/');
  const roadmap = page.getByRole('region', { name: 'Roadmap' });
  const live = roadmap.getByRole('listitem').filter({ hasText: /^Live/ });
  await expect(live).toHaveCount(1);
  for (const feature of [
    'bank',
    'transfers',
    'forge',
    'Quantum Hub exchange',
    'Credits store',
    'synth chips',
    'leaderboards',
    'creator apps',
  ]) {
    await expect(live, feature).toContainText(feature);
  }
  // Nothing shipped is still announced as to come.
  const toCome = roadmap.getByRole('listitem').filter({ hasNotText: /^Live/ });
  for (const shipped of [/forge/i, /leaderboard/i, /store/i, /synth chips/i, /creator/i, /exchange|quantum hub/i]) {
    await expect(toCome.filter({ hasText: shipped })).toHaveCount(0);
  }
  await roadmap.scrollIntoViewIfNeeded();
  await shot(page, 'home-roadmap', info.project.name);
});

test('c: /provider thanks only for a purchase of the signed-in member', async ({
  browser,
  isMobile,
  request,
}, info) => {
  const admin = await adminSignIn(request);
  const pkg = await publishedPackage(request, admin, `Credits ${uniqueNick('pv')}`, '100');
  const buyer = await registerMember(request, uniqueNick('buyer'));
  const bought = (await post(request, buyer.token, '/api/checkout/buyPackage', {
    packageId: pkg._id,
    providerId: 2,
  })) as { checkout: { _id: string } };

  const page = await newPage(browser, isMobile);
  await storeSession(page, await registerMember(request, uniqueNick('browser')));
  // Came to the page without buying anything.
  await page.goto('/provider');
  await expect(page.getByRole('heading', { name: 'No purchase to show' })).toBeVisible();
  await expect(page.getByText('You have not bought anything on this visit.')).toBeVisible();
  await expect(page.getByText(/thank you/i)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Go to the store' })).toHaveAttribute('href', '/checkout');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'provider-none', info.project.name);
  // A checkout id that does not exist, and another member's.
  for (const id of ['0123456789abcdef01234567', bought.checkout._id]) {
    await page.goto(`/provider?checkout=${id}`);
    await expect(page.getByRole('heading', { name: 'No purchase to show' })).toBeVisible();
    await expect(page.getByText('We found no purchase of yours with this reference.')).toBeVisible();
    await expect(page.getByText(/thank you/i)).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Go to the store' })).toBeVisible();
  }
  await shot(page, 'provider-not-yours', info.project.name);

  // The buyer's own purchase is still thanked for.
  const own = await newPage(browser, isMobile);
  await storeSession(own, buyer);
  await own.goto(`/provider?checkout=${bought.checkout._id}`);
  await expect(own.getByRole('heading', { name: 'Thank you for your purchase' })).toBeVisible();
  await expect(own.getByTestId('purchase-state')).toContainText('Created');
});

test('d: Checkout Control shows a package state and the action', async ({ browser, isMobile, request }, info) => {
  const admin = await adminSignIn(request);
  const name = `Pack ${uniqueNick(isMobile ? 'p' : 'd')}`;
  await post(request, admin, '/api/checkout/packages/create', {
    name,
    description: 'Is it on sale?',
    cost: '1.99',
    amount: '50',
  });
  const page = await newPage(browser, isMobile);
  await storeSession(page, { user: { nickname: 'admin' }, token: admin });
  await page.goto('/dashboard?view=admin&tab=checkout-control');
  const card = page.getByRole('listitem', { name });
  // A new package is unpublished: not on sale yet, whatever its active switch says.
  await expect(card.getByText('Not on sale: publish it to sell it')).toBeVisible();
  const toggle = card.getByRole('button', { name: `Active · Deactivate ${name}`, exact: true });
  await expect(toggle).toHaveText('Active · Deactivate');
  await toggle.click();
  const back = card.getByRole('button', { name: `Inactive · Activate ${name}`, exact: true });
  await expect(back).toHaveText('Inactive · Activate');
  await card.getByRole('button', { name: `Publish ${name}` }).click();
  await expect(card.getByText('Not on sale: inactive')).toBeVisible();
  await back.click();
  await expect(card.getByText('On sale', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: `Active · Deactivate ${name}`, exact: true })).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'checkout-control', info.project.name);
});

test('e: Cex Control Status says how each pair trades', async ({ browser, isMobile, request }, info) => {
  const admin = await adminSignIn(request);
  const ids: number[] = [];
  for (const prefix of ['E', 'F']) {
    ids.push((await createCurrency(request, admin, { prefix })).currencyId);
  }
  const { pair } = (await post(request, admin, '/api/cex/createPair', {
    buyCurrency: ids[0],
    sellCurrency: ids[1],
    canBuy: true,
    canSell: false,
    fee: '0',
    feeCollector: '',
  })) as { pair: { _id: string; name: string } };
  const page = await newPage(browser, isMobile);
  await storeSession(page, { user: { nickname: 'admin' }, token: admin });
  await page.goto('/dashboard?view=admin&tab=cex-control');
  const status = isMobile
    ? page.getByRole('listitem', { name: pair.name }).getByTestId('pair-status')
    : page.getByRole('row').filter({ hasText: pair.name }).getByTestId('pair-status');
  await expect(status).toContainText('Trading');
  await expect(status).toContainText('Buys on');
  await expect(status).toContainText('Sells off');
  // Every pair's status says something.
  for (const cell of await page.getByTestId('pair-status').all()) {
    await expect(cell).toContainText(/Trading|Frozen/);
  }
  await status.scrollIntoViewIfNeeded();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'cex-control', info.project.name);
});

test('f: amounts read one way, "1,000.00 CR", on the thank-you page and in Checkout Logs', async ({
  browser,
  isMobile,
  request,
}, info) => {
  const admin = await adminSignIn(request);
  const name = `Thousand ${uniqueNick('f')}`;
  const pkg = await publishedPackage(request, admin, name, '1000');
  const member = await registerMember(request, uniqueNick('thou'));
  const bought = (await post(request, member.token, '/api/checkout/buyPackage', {
    packageId: pkg._id,
    providerId: 2,
  })) as { checkout: { _id: string } };
  await post(request, member.token, `/api/checkout/sandbox/${bought.checkout._id}/pay`, {});

  const page = await newPage(browser, isMobile);
  await storeSession(page, member);
  await page.goto(`/provider?checkout=${bought.checkout._id}`);
  await expect(page.getByTestId('purchase-state')).toContainText('1,000.00 CR are in your account');
  await shot(page, 'provider-thanks', info.project.name);

  if (isMobile) {
    await page.goto('/userbank');
    await page.getByRole('tab', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Checkout Logs' }).click();
  } else {
    await page.goto('/userbank?tab=logs&log=checkout');
  }
  const row = page.getByTestId('checkout-row').filter({ hasText: name });
  await expect(row).toContainText('1,000.00 CR');
  await expect(row).not.toContainText('1000.00');
  await shot(page, 'checkout-logs', info.project.name);

  const console = await newPage(browser, isMobile);
  await storeSession(console, { user: { nickname: 'admin' }, token: admin });
  await console.goto('/dashboard?view=admin&tab=checkout-control');
  await expect(console.getByRole('listitem', { name })).toContainText('1,000.00 CR');
});

test('g: opened ships show their rarity in colour and their class image', async ({
  browser,
  isMobile,
  request,
}, info) => {
  test.setTimeout(90_000);
  const admin = await adminSignIn(request);
  const nick = uniqueNick('opener');
  const member = await registerMember(request, nick);
  await post(request, admin, '/api/bank/mint', {
    recipientNickName: nick,
    currencyId: 3,
    amount: '10000',
    note: 'for chips',
  });
  await post(request, member.token, '/api/inventory/buySynthChips', { amount: 20 });
  const page = await newPage(browser, isMobile);
  await storeSession(page, member);
  await page.goto('/openasc');
  const slider = page.getByRole('slider', { name: 'Chips to open' });
  await slider.focus();
  await slider.press('End');
  await page.getByRole('button', { name: 'Commence' }).click();
  const ships = page.getByTestId('created-ship');
  await expect(ships).toHaveCount(100);
  const seen = new Map<string, string>();
  for (const ship of await ships.all()) {
    const rarity = ship.getByTestId('ship-rarity');
    const label = (await rarity.textContent()) ?? '';
    const colour = await rarity.evaluate((el) => getComputedStyle(el).color);
    if (seen.has(label)) expect(colour, label).toBe(seen.get(label));
    // The whole word, never "UNCOM…".
    const cut = await rarity.evaluate((el) =>
      [el, ...el.querySelectorAll('*')].some((e) => e.scrollWidth > e.clientWidth + 1),
    );
    expect(cut, label).toBe(false);
    seen.set(label, colour);
    const name = (await ship.getByTestId('ship-name').textContent()) ?? '';
    const shipClass = name.replace(/^Alpha /, '').toLowerCase();
    await expect(ship.locator('img')).toHaveAttribute('src', `/ships/${shipClass}.svg`);
  }
  // 100 ships hold Common and Uncommon ones (all but certainly), each in its own colour.
  expect(seen.has('Common') && seen.has('Uncommon')).toBe(true);
  expect(new Set(seen.values()).size).toBe(seen.size);
  // The images load (the files exist).
  await expect
    .poll(() =>
      page
        .getByTestId('created-ship')
        .locator('img')
        .evaluateAll((imgs) => imgs.filter((i) => !(i as HTMLImageElement).naturalWidth).length),
    )
    .toBe(0);
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('heading', { name: 'Ships created' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/opened-ships-${info.project.name}.png` });
});

test('h: the desktop header shows each label beside its icon; the phone keeps its Menu', async ({
  page,
  isMobile,
}, info) => {
  await acceptDisclaimerUpFront(page);
  await page.goto('/');
  const header = page.locator('header');
  if (isMobile) {
    await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeVisible();
    await shot(page, 'header', info.project.name);
    return;
  }
  for (const label of ['Home', 'Quantum Hub', 'Games', 'Account', 'Buy Credits', 'Synth Chips']) {
    const link = header.getByRole('link', { name: label, exact: true });
    await expect(link).toBeVisible();
    await expect(link).toHaveText(label);
  }
  // Everything fits: no label is cut and nothing leaves the window.
  const overflow = await header.evaluate(
    (h) =>
      [...h.querySelectorAll('a, span')].filter((e) => {
        const r = e.getBoundingClientRect();
        return e.scrollWidth > e.clientWidth + 1 || r.right > window.innerWidth + 1;
      }).length,
  );
  expect(overflow).toBe(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'header', info.project.name);
});
