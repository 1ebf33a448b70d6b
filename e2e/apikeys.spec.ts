/**
 * The API key panel of /userconfig in a browser: make, show, copy, renew and disable a
 * key, each checked against the API as a program would use it.
 */
import { expect, test } from '@playwright/test';
import { acceptDisclaimerUpFront, expectNoSeriousA11yViolations, PASSWORD, uniqueNick } from './fixtures.ts';

test.beforeEach(async ({ page }) => acceptDisclaimerUpFront(page));

test('make, show, copy, renew and disable an API key', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const nick = uniqueNick('key');
  await request.post('/api/user/register', {
    data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
  });
  await page.goto('/login');
  await page.getByLabel('Nickname or e-mail').fill(nick);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/userconfig');
  const shown = page.getByTestId('api-key');
  await expect(shown).toHaveText('No Key');
  await expect(page.getByRole('button', { name: 'Show' })).toBeDisabled();
  await expectNoSeriousA11yViolations(page);

  const status = (key: string) =>
    request.get('/api/user/me', { headers: { 'x-api-key': key } }).then((r) => r.status());

  await page.getByRole('button', { name: 'New Key' }).click();
  await expect(shown).toHaveText(/^sl_•+$/);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(shown).toHaveText(/^sl_[A-Za-z0-9_-]{43}$/);
  const first = (await shown.textContent()) ?? '';
  expect(await status(first)).toBe(200);

  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'API key copied to clipboard' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);

  await page.getByRole('button', { name: 'Hide' }).click();
  await expect(shown).toHaveText(/^sl_•+$/);

  // A reload keeps it masked; Get Key fetches the same key.
  await page.reload();
  await page.getByRole('button', { name: 'Get Key' }).click();
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(shown).toHaveText(first);

  await page.getByRole('button', { name: 'New Key' }).click();
  await expect(shown).not.toHaveText(first);
  const second = (await shown.textContent()) ?? '';
  expect(second).toMatch(/^sl_[A-Za-z0-9_-]{43}$/);
  expect(await status(first)).toBe(401);
  expect(await status(second)).toBe(200);

  await page.getByRole('button', { name: 'Disable' }).click();
  await expect(shown).toHaveText('No Key');
  await expect(page.getByRole('alert').filter({ hasText: 'API key access disabled' })).toBeVisible();
  expect(await status(second)).toBe(401);
});
