/**
 * User Control → Member sessions in a browser (DESIGN §11.1): the admin looks a member up, sees their
 * sessions (device, address, two-factor), ends them all after a confirmation (the member's token is
 * refused at once), and sees the empty state; an unknown nickname shows the server's error. Desktop and
 * phone; screenshots in the results.
 */
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, newPage, PASSWORD, signIn, uniqueNick } from './fixtures.ts';

const PHONE_DEVICE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

test('lists a member’s sessions and ends them all', async ({ browser, isMobile, request }, info) => {
  // Two sign-ins, a lookup, an accessibility scan and three screenshots: more than one minute on a busy machine.
  test.slow();
  const nick = uniqueNick('adms');
  const reg = await request.post('/api/user/register', {
    data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
    headers: { 'user-agent': PHONE_DEVICE },
  });
  expect(reg.ok()).toBe(true);
  const memberToken = ((await reg.json()) as { token: string }).token;
  const second = await request.post('/api/user/login', { data: { nickOrEmail: nick, password: PASSWORD } });
  expect(second.ok()).toBe(true);
  const me = (token: string) =>
    request.get('/api/user/me', { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status());

  const page = await newPage(browser, isMobile);
  await signIn(page);
  await page.goto('/dashboard?view=admin&tab=user-control');
  const card = page.getByRole('region', { name: 'Member sessions' });
  // The console and the tab's panel load on first use.
  await expect(card).toBeVisible({ timeout: 30_000 });

  // An unknown member: the server's message, no buttons.
  await card.getByLabel('Member nickname').fill(`${nick}x`);
  await card.getByRole('button', { name: 'Look up' }).click();
  await expect(card.getByRole('alert')).toHaveText('User not found');
  await expect(card.getByRole('button', { name: 'End all sessions' })).toHaveCount(0);

  await card.getByLabel('Member nickname').fill(nick);
  await card.getByRole('button', { name: 'Look up' }).click();
  const rows = card.getByRole('list', { name: `Sessions of ${nick}` }).getByRole('listitem');
  await expect(rows).toHaveCount(2);
  await expect(card.getByText(`${nick} has 2 active sessions`)).toBeVisible();
  await expect(rows.filter({ hasText: 'Safari 17 on iOS' })).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('member-sessions.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page);

  // Ending asks first; Cancel ends nothing.
  await card.getByRole('button', { name: 'End all sessions' }).click();
  const dialog = page.getByRole('dialog', { name: 'End all sessions' });
  await expect(dialog).toContainText(`End every session of ${nick}?`);
  await page.screenshot({ path: info.outputPath('member-sessions-confirm.png'), animations: 'disabled' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  expect(await me(memberToken)).toBe(200);

  await card.getByRole('button', { name: 'End all sessions' }).click();
  await page
    .getByRole('dialog', { name: 'End all sessions' })
    .getByRole('button', { name: 'End all sessions' })
    .click();
  await expect(page.getByRole('alert').filter({ hasText: `${nick}'s sessions have been ended (2)` })).toBeVisible();
  await expect(card.getByText(`No active sessions: ${nick} is not signed in anywhere.`)).toBeVisible();
  await expect(rows).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'End all sessions' })).toBeDisabled();
  expect(await me(memberToken)).toBe(401);
  await page.screenshot({ path: info.outputPath('member-sessions-empty.png'), fullPage: true });
  await page.context().close();
});
