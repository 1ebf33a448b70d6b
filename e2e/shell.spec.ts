import { expect, test } from '@playwright/test';
import {
  acceptDisclaimerUpFront,
  expectNoSeriousA11yViolations,
  registerMember,
  storeSession,
  uniqueNick,
} from './fixtures.ts';

test.describe('the beta disclaimer', () => {
  test('blocks the page until ticked, then stays away for a month', async ({ page }) => {
    await page.goto('/');
    const dialog = page.getByRole('dialog', { name: 'Beta Disclaimer (v0.0.1)' });
    await expect(dialog).toBeVisible();
    const accept = dialog.getByRole('button', { name: 'Please read…' });
    await expect(accept).toBeDisabled();
    await dialog.getByLabel('I have read and agree to the above disclaimer.').check();
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await expect(dialog).toBeHidden();

    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('disclaimer') ?? 'null'));
    expect(stored.version).toBe('v0.0.1');
    const days = (stored.nextShow - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);

    await page.reload();
    await expect(page.getByRole('heading', { name: /community economy/ })).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  test('comes back once the month has passed or the version is older', async ({ page }) => {
    await page.addInitScript(() => {
      localStorage.setItem('disclaimer', JSON.stringify({ version: 'v0.0.0', nextShow: Date.now() + 86_400_000 }));
    });
    await page.goto('/');
    await expect(page.getByRole('dialog', { name: 'Beta Disclaimer (v0.0.1)' })).toBeVisible();
  });
});

test.describe('the shell', () => {
  test.beforeEach(async ({ page }) => acceptDisclaimerUpFront(page));

  test('every menu entry leads to a page inside the shell', async ({ page, isMobile }) => {
    const entries: [string, RegExp][] = [
      ['Rewards', /\/underdev$/],
      ['Analytics', /\/analytics$/],
      ['Media', /\/media$/],
      ['Quantum Hub', /\/quantumhub$/],
      ['Games', /\/games$/],
      ['Leader Board', /\/leaderboard$/],
      ['FaQ', /\/Faq$/],
      ['Buy Credits', /\/checkout$/],
      ['Synth Chips', /\/synthchips$/],
      ['Market', /\/market$/],
      ['Home', /\/$/],
    ];
    await page.goto('/');
    for (const [label, url] of entries) {
      if (isMobile) {
        await page.getByRole('button', { name: 'Menu', exact: true }).click();
        const menu = page.getByRole('dialog', { name: 'Menu' });
        await menu.getByRole('link', { name: label, exact: true }).click();
        await expect(menu).toBeHidden();
      } else {
        await page.locator('header').getByRole('link', { name: label, exact: true }).click();
      }
      await expect(page).toHaveURL(url);
      await expect(page.locator('header')).toBeVisible();
      await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
    }
  });

  test('every SPEC menu entry is offered: icon bars on desktop, the Menu list on phones', async ({
    page,
    isMobile,
  }) => {
    const labels = [
      'Home',
      'Rewards',
      'Analytics',
      'Media',
      'Quantum Hub',
      'Games',
      'Account',
      'Community',
      'Leader Board',
      'FaQ',
      'Buy Credits',
      'Synth Chips',
      'Market',
    ];
    await page.goto('/');
    let scope = page.locator('header');
    if (isMobile) {
      await page.getByRole('button', { name: 'Menu', exact: true }).click();
      scope = page.getByRole('dialog', { name: 'Menu' });
    }
    for (const label of labels) await expect(scope.getByRole('link', { name: label, exact: true })).toBeVisible();
    await expect(scope.getByRole('link', { name: 'Community' })).toHaveAttribute('target', '_blank');
    if (isMobile) {
      await scope.getByRole('button', { name: 'Close menu' }).click();
      await expect(scope).toBeHidden();
    }
  });

  test("a member's header keeps the bell and the menu inside the window at every width", async ({
    page,
    isMobile,
    request,
  }, info) => {
    const member = await registerMember(request, uniqueNick('hdr'));
    await storeSession(page, member);
    const header = page.locator('header');
    // Desktop: every entry's icon (and word, where they show) and the bell; phone: the bell and Menu.
    const widths = isMobile ? [360, 390, 430] : [1024, 1280, 1440, 1600, 1920];
    const menu = isMobile
      ? header.getByRole('button', { name: 'Menu', exact: true })
      : header.getByRole('link', { name: 'Market', exact: true });
    for (const width of widths) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/market');
      for (const target of [header.getByRole('button', { name: /^Notifications/ }), menu]) {
        await expect(target).toBeVisible();
        const box = await target.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= width, `inside ${width} px`).toBe(true);
      }
      // No word of the menu is cut where the words show (narrower, icons carry hover tips wider than them).
      if (width < 1280) continue;
      const cut = await header.evaluate((h) =>
        [...h.querySelectorAll('a, span, button')]
          .filter((e) => e.scrollWidth > e.clientWidth + 1)
          .map((e) => e.outerHTML.slice(0, 120)),
      );
      expect(cut, `cut at ${width} px`).toEqual([]);
      if (width === 1280) await page.screenshot({ path: info.outputPath('member-header-1280.png') });
    }
  });

  test('an unknown route still shows the shell', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  test('the home page has no serious accessibility violation', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: /community economy/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
