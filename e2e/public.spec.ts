/**
 * The public pages: home, FAQ, media, reports, lightpaper and games have real content, no
 * "coming soon", and no serious accessibility violation, on desktop and phone.
 */
import { expect, test } from '@playwright/test';
import { acceptDisclaimerUpFront, expectNoSeriousA11yViolations } from './fixtures.ts';

test.beforeEach(async ({ page }) => acceptDisclaimerUpFront(page));

const PAGES: Array<[string, string | RegExp]> = [
  ['/', 'The community economy of the Starlight universe'],
  ['/Faq', 'Frequently asked questions'],
  ['/faq', 'Frequently asked questions'],
  ['/media', 'Media'],
  ['/reports', 'Reports'],
  ['/lightpaper', 'Lightpaper'],
  ['/games', 'Games'],
];

for (const [path, heading] of PAGES) {
  test(`${path} has its content, no "coming soon" and no serious a11y violation`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByText(/coming soon/i)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });
}

test('the FAQ opens an answer with bold text, and works offline once read', async ({ page }) => {
  await page.goto('/Faq');
  for (const category of [
    'The economy',
    'The Starlight universe (IP)',
    'Play to earn',
    'Rewards and competitions',
    'Guilds',
    "Orion's Reach",
  ]) {
    await expect(page.getByRole('heading', { name: category })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Which currencies does Starlight have?' }).click();
  const answer = page.getByText('is the main token: your citizenship rank follows how much of it you hold.');
  await expect(answer).toBeVisible();
  await expect(answer.locator('b', { hasText: 'Stardust (SD)' })).toBeVisible();

  // Cached in localStorage: with faq.json unreachable the page still answers.
  await page.route('**/faq.json', (route) => route.abort());
  await page.reload();
  await page.getByRole('button', { name: "What is Orion's Reach?" }).click();
  await expect(page.getByText('The first game of the Starlight universe')).toBeVisible();
});

test('reports list 2022 and say 2023 has none yet; the lightpaper and a report load', async ({ page, request }) => {
  await page.goto('/reports');
  await expect(page.getByRole('link', { name: 'Q3 2022 economy report' })).toBeVisible();
  await page.getByRole('button', { name: '2023' }).click();
  await expect(page.getByText('No reports for 2023 yet')).toBeVisible();
  const report = await request.get('/docs/reports/2022-q4.html');
  expect(report.ok()).toBe(true);
  expect(await report.text()).toContain('Q4 2022 economy report');

  await page.goto('/lightpaper');
  const frame = page.frameLocator('iframe[title="Starlight lightpaper"]');
  await expect(
    frame.getByRole('heading', { name: 'Starlight: the community economy of a gaming universe' }),
  ).toBeVisible();
});

test('media tabs and the game card', async ({ page }) => {
  await page.goto('/media');
  await expect(page.getByRole('link', { name: 'Open Community chat' })).toHaveAttribute('target', '_blank');
  await page.getByRole('tab', { name: 'Press Releases' }).click();
  await expect(page.getByText('Press releases will be published here.')).toBeVisible();
  await page.getByRole('tab', { name: 'Reports' }).click();
  await expect(page.getByRole('link', { name: 'Q4 2022 economy report' })).toBeVisible();

  await page.goto('/games');
  const play = page.getByRole('link', { name: 'Play Now' });
  await expect(play).toHaveAttribute('target', '_blank');
  await expect(play).toHaveAttribute('rel', /noopener/);
});
