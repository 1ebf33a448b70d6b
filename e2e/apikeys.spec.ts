/**
 * Settings → API keys in a browser (DESIGN §11.2): the empty state, a new key with scopes and an allowed
 * address whose secret is shown once and copied, the key working as a program would use it, then revoked
 * behind a confirmation; and an admin revoking a member's key from User Control. Desktop and phone;
 * screenshots in the results.
 */
import { type APIRequestContext, expect, test } from '@playwright/test';
import {
  ADMIN,
  acceptDisclaimerUpFront,
  expectNoSeriousA11yViolations,
  PASSWORD,
  registerMember,
  signIn,
  uniqueNick,
} from './fixtures.ts';

test.beforeEach(async ({ page }) => acceptDisclaimerUpFront(page));
// Each test signs in and walks several dialogs: three times the default budget on a shared machine.
test.slow();

const status = (request: APIRequestContext, key: string) =>
  request.get('/api/user/me', { headers: { 'x-api-key': key } }).then((r) => r.status());

test('make a key, copy its secret once, use it, revoke it', async ({ page, context, request }, info) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const nick = uniqueNick('key');
  await registerMember(request, nick);
  await signIn(page, nick, PASSWORD);

  await page.goto('/userconfig');
  const card = page.getByRole('region', { name: 'API keys' });
  await expect(card.getByTestId('api-keys-empty')).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('api-keys-empty.png'), fullPage: true });

  await card.getByRole('button', { name: 'New key' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API key' });
  await dialog.getByRole('textbox', { name: /Name/ }).fill('Trading bot');
  // The dialog may still be opening on a busy machine: check again until the box holds its tick.
  await expect(() => dialog.getByRole('checkbox', { name: /trade/ }).check({ timeout: 5_000 })).toPass();
  await dialog.getByRole('textbox', { name: /Allowed addresses/ }).fill('10.0.0.0/8\nnot-an-address');
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: info.outputPath('api-keys-create.png') });
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('"not-an-address" is not an IP address or CIDR range');

  // Only from this machine: the browser's requests come from 127.0.0.1.
  await dialog.getByRole('textbox', { name: /Allowed addresses/ }).fill('127.0.0.1\n::1');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  const secretBox = shown.getByTestId('api-key-secret');
  await expect(secretBox).toHaveText(/^sl_[A-Za-z0-9_-]{43}$/);
  const secret = (await secretBox.textContent()) ?? '';
  await shown.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'API key copied to clipboard' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.screenshot({ path: info.outputPath('api-keys-secret.png') });
  await shown.getByRole('button', { name: 'Done' }).click();

  expect(await status(request, secret)).toBe(200);
  const row = card.getByRole('listitem', { name: 'Trading bot' });
  await expect(row).toContainText(secret.slice(0, 11));
  await expect(row).toContainText('From 127.0.0.1, ::1');
  await expect(row.getByText('trade', { exact: true })).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);
  // The secret is not shown again, even after a reload.
  await page.reload();
  await expect(card.getByRole('listitem', { name: 'Trading bot' })).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('api-keys-list.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page);

  await card.getByRole('listitem', { name: 'Trading bot' }).getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API key' });
  await expect(confirm).toContainText('Trading bot');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'API key Trading bot revoked' })).toBeVisible();
  await expect(card.getByTestId('api-keys-empty')).toBeVisible();
  expect(await status(request, secret)).toBe(401);
});

test("an admin sees a member's keys and revokes one", async ({ page, request }, info) => {
  const nick = uniqueNick('akadm');
  const { token } = await registerMember(request, nick);
  const made = await request.post('/api/user/apiKeys/create', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Script', scopes: ['read'] },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const { secret } = (await made.json()) as { secret: string };
  expect(await status(request, secret)).toBe(200);

  await signIn(page, ADMIN.nickname, ADMIN.password);
  await page.goto('/dashboard?view=admin&tab=user-control');
  const panel = page.getByRole('region', { name: 'API keys' });
  await panel.getByRole('textbox', { name: 'Nickname' }).fill(nick);
  await panel.getByRole('button', { name: 'Show keys' }).click();
  await expect(panel.getByTestId('user-api-keys-message')).toHaveText(`${nick} has 1 API key`);
  const row = panel.getByRole('listitem', { name: 'Script' });
  await expect(row).toContainText(secret.slice(0, 11));
  await expect(page.getByText(secret)).toHaveCount(0);
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('admin-api-keys.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page);

  await row.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog', { name: 'Revoke API key' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `${nick}'s API key Script revoked` })).toBeVisible();
  await expect(panel.getByTestId('user-api-keys-message')).toHaveText(`${nick} has 0 API keys`);
  expect(await status(request, secret)).toBe(401);
});
