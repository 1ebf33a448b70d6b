/**
 * Settings → Sessions in a browser (DESIGN §11.1): a member signed in on two devices sees both, this one
 * marked, ends the other, and that device is signed out at its next request; then ends all others.
 * Desktop and phone; screenshots in the results.
 */
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, newPage, PASSWORD, signIn, uniqueNick } from './fixtures.ts';

const OTHER_DEVICE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

test('lists the sessions, ends another device, then all others', async ({ browser, isMobile, request }, info) => {
  const nick = uniqueNick('sess');
  const reg = await request.post('/api/user/register', {
    data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
    headers: { 'user-agent': OTHER_DEVICE },
  });
  expect(reg.ok()).toBe(true);
  const otherToken = ((await reg.json()) as { token: string }).token;

  const page = await newPage(browser, isMobile);
  await signIn(page, nick, PASSWORD);
  await page.goto('/userconfig');
  const card = page.getByRole('region', { name: 'Sessions' });
  const rows = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
  await expect(rows).toHaveCount(2);
  await expect(rows.first().getByText('This device')).toBeVisible();
  await expect(rows.filter({ hasText: 'Safari 17 on iOS' })).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('sessions.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page);

  // The other device's token works until its session is ended here.
  const me = (token: string) =>
    request.get('/api/user/me', { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status());
  expect(await me(otherToken)).toBe(200);
  await rows.filter({ hasText: 'Safari 17 on iOS' }).getByRole('button', { name: 'End' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The session has been ended' })).toBeVisible();
  await expect(rows).toHaveCount(1);
  expect(await me(otherToken)).toBe(401);

  // A second browser signs in; "End all other sessions" signs it out at its next page.
  const second = await newPage(browser, isMobile);
  await signIn(second, nick, PASSWORD);
  await page.reload();
  await expect(rows).toHaveCount(2);
  await card.getByRole('button', { name: 'End all other sessions' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '1 other session ended' })).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(card.getByRole('button', { name: 'End all other sessions' })).toHaveCount(0);
  await second.goto('/userconfig');
  await expect(second).toHaveURL(/\/login/);
  await page.screenshot({ path: info.outputPath('sessions-after.png'), fullPage: true });
  await second.context().close();
  await page.context().close();
});
