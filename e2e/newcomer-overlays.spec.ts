/**
 * The shell's notices and overlays on a newcomer's first hour, at desktop and phone size:
 * - On an alert day (defcon > 0) a first-time visitor meets one dialog at a time: the Beta Disclaimer,
 *   then the alert notice, each reached by its role and by the keyboard (Tab reaches the button, Enter
 *   presses it), never both at once behind a doubled backdrop (§9).
 * - A notice never covers a control: the "Verify your e-mail" card sits in the page, not over the open
 *   phone menu nor over a forge recipe's Start button; a toast sits below the header, clear of the
 *   header's links and the Account page's Logout button, and is gone while the phone menu is open (§10).
 * Each test leaves screenshots under .cache/e2e-results/screens for a person to look at.
 */
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import {
  adminSignIn,
  expectNoSeriousA11yViolations,
  newPage,
  PASSWORD,
  registerMember,
  storeSession,
  uniqueNick,
} from './fixtures.ts';

const SCREENS = '.cache/e2e-results/screens';

/**
 * What covers the centre of `locator`, or null when the element itself (or something inside it) is
 * the topmost element there: a control a member can see and press.
 */
async function coveredBy(locator: Locator): Promise<string | null> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (top && (top === el || el.contains(top))) return null;
    if (!top) return 'nothing (off screen)';
    const box = top.closest('[role], [class]') ?? top;
    return `${box.tagName.toLowerCase()} ${box.getAttribute('role') ?? ''} ${box.className}`.trim();
  });
}

/** Presses Tab until `target` has the focus (at most `max` times); fails when it never does. */
async function tabTo(page: Page, target: Locator, max = 12): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

async function setDefcon(request: APIRequestContext, token: string, defconLvl: number, defconMsg: string) {
  const res = await request.post('/api/audit/setDefconLevel', {
    headers: { authorization: `Bearer ${token}` },
    data: { defconLvl, defconMsg },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** Marks only the disclaimer as accepted: the verify-e-mail card is what these tests look at. */
async function acceptDisclaimerOnly(page: Page): Promise<void> {
  await page.addInitScript(() => {
    localStorage.setItem('disclaimer', JSON.stringify({ version: 'v0.0.1', nextShow: Date.now() + 86_400_000 }));
  });
}

/** Signs in on the login page (the way a member does), which greets them with a success toast. */
async function signInByForm(page: Page, nick: string): Promise<Locator> {
  await page.goto('/login');
  await page.getByLabel('Nickname or e-mail').fill(nick);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const toast = page.getByRole('alert').first();
  await expect(toast).toBeVisible();
  return toast;
}

test('on an alert day a first-time visitor meets one dialog at a time, each reached by role and keyboard', async ({
  page,
  request,
}, info) => {
  const admin = await adminSignIn(request);
  await setDefcon(request, admin, 3, 'Exchange maintenance at noon');
  try {
    // A first-time visitor: nothing stored, so the disclaimer is due.
    const level = page.waitForResponse((r) => r.url().includes('/api/audit/getDefconLevel'));
    await page.goto('/');
    await level;
    const disclaimer = page.getByRole('dialog', { name: 'Beta Disclaimer (v0.0.1)' });
    await expect(disclaimer).toBeVisible();
    // The alert level is known by now; give its notice time to load, then count: one dialog only.
    await page.waitForTimeout(1500);
    await expect(page.getByRole('dialog')).toHaveCount(1);
    await page.screenshot({ path: `${SCREENS}/alert-day-disclaimer-${info.project.name}.png` });
    await expectNoSeriousA11yViolations(page);

    // The disclaimer by role and keyboard: tick the box, Tab to Accept, Enter.
    await tabTo(page, disclaimer.getByRole('checkbox', { name: 'I have read and agree to the above disclaimer.' }));
    await page.keyboard.press('Space');
    const accept = disclaimer.getByRole('button', { name: 'Accept' });
    await tabTo(page, accept);
    await page.keyboard.press('Enter');
    await expect(disclaimer).toBeHidden();

    // Then the alert notice, alone, by role and keyboard.
    const notice = page.getByRole('dialog', { name: 'Defcon Level 3' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('Exchange maintenance at noon');
    await expect(page.getByRole('dialog')).toHaveCount(1);
    await page.screenshot({ path: `${SCREENS}/alert-day-notice-${info.project.name}.png` });
    await expectNoSeriousA11yViolations(page);
    const acknowledged = notice.getByRole('button', { name: 'Acknowledged' });
    await tabTo(page, acknowledged);
    await page.keyboard.press('Enter');
    await expect(notice).toBeHidden();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: /community economy/ })).toBeVisible();
  } finally {
    // Back to 0, so no later test meets the notice.
    await setDefcon(request, admin, 0, '');
  }
});

// The Menu is the phone's: tagged @phone, which only the phone project runs (playwright.config.ts).
test(
  'with the phone menu open, no toast or verify card covers its items',
  { tag: '@phone' },
  async ({ page, request }, info) => {
    const nick = uniqueNick('menu');
    await registerMember(request, nick);
    await acceptDisclaimerOnly(page);
    await signInByForm(page, nick);
    await expect(page.getByText('Verify your e-mail')).toBeVisible();

    // The Menu button is clear of the welcome toast.
    const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
    expect(await coveredBy(menuButton)).toBeNull();
    await menuButton.click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu.getByRole('link', { name: 'Synth Chips' })).toBeVisible();
    await page.waitForTimeout(400); // the drawer's slide-in
    await page.screenshot({ path: `${SCREENS}/menu-open-notices-${info.project.name}.png` });
    const covered: string[] = [];
    for (const item of [menu.getByRole('button', { name: 'Close menu' }), ...(await menu.getByRole('link').all())]) {
      const by = await coveredBy(item);
      if (by) covered.push(`${await item.textContent()}${await item.getAttribute('aria-label')}: ${by}`);
    }
    expect(covered).toEqual([]);
    await expectNoSeriousA11yViolations(page);

    // Closing the menu brings the card back, in the page, and it goes with Later.
    await menu.getByRole('button', { name: 'Close menu' }).click();
    await expect(menu).toBeHidden();
    const card = page.getByRole('region', { name: 'Verify your e-mail' });
    await expect(card).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/verify-card-${info.project.name}.png` });
    await card.getByRole('button', { name: 'Later' }).click();
    await expect(card).toHaveCount(0);
  },
);

/** Fails when `toast` lies over the header's controls or over any of `controls` (centre check). */
async function expectClearOfToast(page: Page, toast: Locator, controls: Locator[]): Promise<void> {
  await expect(toast).toBeVisible();
  const header = page.locator('header');
  // Every control of the header (the icon links on a desktop, the Menu button on a phone) and the others.
  const all = [...(await header.getByRole('link').all()), ...(await header.getByRole('button').all()), ...controls];
  const covered: string[] = [];
  for (const control of all) {
    if (!(await control.isVisible())) continue;
    const by = await coveredBy(control);
    if (by) covered.push(`${(await control.getAttribute('aria-label')) ?? (await control.textContent())}: ${by}`);
  }
  expect(covered).toEqual([]);
  // The toast lies wholly below the header.
  const headerBox = await header.boundingBox();
  const toastBox = await toast.boundingBox();
  expect(toastBox?.y ?? 0).toBeGreaterThanOrEqual((headerBox?.y ?? 0) + (headerBox?.height ?? 0));
}

test('a toast after signing in covers neither the header, the Logout button nor the verify banner', async ({
  browser,
  page,
  request,
  isMobile,
}, info) => {
  // A member whose reminder is not due: the Account page's buttons are its first row, right under the header.
  const settled = uniqueNick('toast');
  await registerMember(request, settled);
  const first = await newPage(browser, isMobile);
  const welcome = await signInByForm(first, settled);
  const logout = first.getByRole('button', { name: 'Logout' });
  await expect(logout).toBeVisible();
  await first.screenshot({ path: `${SCREENS}/toast-dashboard-${info.project.name}.png` });
  await expectClearOfToast(first, welcome, [logout, first.getByRole('button', { name: 'User', exact: true })]);
  // Not even an edge of the Logout button lies under the toast.
  const [toastBox, logoutBox] = [await welcome.boundingBox(), await logout.boundingBox()];
  const overlaps =
    toastBox &&
    logoutBox &&
    toastBox.x < logoutBox.x + logoutBox.width &&
    logoutBox.x < toastBox.x + toastBox.width &&
    toastBox.y < logoutBox.y + logoutBox.height &&
    logoutBox.y < toastBox.y + toastBox.height;
  expect(overlaps).toBeFalsy();
  await expectNoSeriousA11yViolations(first);

  // An unverified member: the verify banner above the page, its buttons clear of the toast too.
  const fresh = uniqueNick('toastv');
  await registerMember(request, fresh);
  await acceptDisclaimerOnly(page);
  const toast = await signInByForm(page, fresh);
  const banner = page.getByRole('region', { name: 'Verify your e-mail' });
  await expect(banner).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/toast-verify-banner-${info.project.name}.png` });
  await expectClearOfToast(page, toast, [
    ...(await banner.getByRole('button').all()),
    page.getByRole('button', { name: 'Logout' }),
  ]);
  await expectNoSeriousA11yViolations(page);
});

test('the verify card covers no forge recipe’s Start button', async ({ page, request, isMobile }, info) => {
  const nick = uniqueNick('vforge');
  const member = await registerMember(request, nick);
  const admin = await adminSignIn(request);
  const auth = { authorization: `Bearer ${admin}` };
  const tag = Date.now().toString(36).slice(-4).toUpperCase();
  const make = async (ticker: string) => {
    const res = await request.post('/api/bank/createCurrency', {
      headers: auth,
      data: {
        ticker,
        name: `Ore ${ticker}`,
        precision: 0,
        canDeposit: false,
        canWithdraw: false,
        canTransfer: true,
        canMint: true,
        canBurn: true,
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
    return ((await res.json()) as { currency: { currencyId: number } }).currency.currencyId;
  };
  const ore = await make(`V${tag}`);
  const ingot = await make(`W${tag}`);
  const minted = await request.post('/api/bank/mint', {
    headers: auth,
    data: { recipientNickName: nick, currencyId: ore, amount: '100', note: 'overlay test' },
  });
  expect(minted.ok()).toBe(true);
  for (let i = 0; i < 6; i++) {
    const created = await request.post('/api/forge/recipes/create', {
      headers: auth,
      data: {
        name: `Smelt ${tag} ${i}`,
        description: 'Ore becomes an ingot',
        timeRequired: 60,
        input: { currencyId: ore, amount: 1 },
        output: { currencyId: ingot, amount: 1 },
      },
    });
    expect(created.ok(), await created.text()).toBe(true);
  }

  // An unverified member (registered, never verified), the disclaimer accepted, the card due.
  await acceptDisclaimerOnly(page);
  await storeSession(page, member);
  if (isMobile) {
    await page.goto('/userbank');
    await page.getByRole('tab', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Forge', exact: true }).click();
  } else {
    await page.goto('/userbank?tab=forge');
  }
  await expect(page.getByRole('heading', { name: 'Forge', exact: true })).toBeVisible();
  await expect(page.getByText('Verify your e-mail')).toBeVisible();
  const starts = page.getByRole('button', { name: 'Start Forge' });
  await expect(starts.first()).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/verify-card-forge-${info.project.name}.png` });
  const covered: string[] = [];
  for (const start of await starts.all()) {
    // Each button at the foot of the window, where a card fixed to the corner would sit.
    await start.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    const by = await coveredBy(start);
    if (by) covered.push(by);
  }
  expect(covered).toEqual([]);
  await expectNoSeriousA11yViolations(page);
});
