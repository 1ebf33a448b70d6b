import { expect, test } from '@playwright/test';
import { acceptDisclaimerUpFront, expectNoSeriousA11yViolations } from './fixtures.ts';

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
