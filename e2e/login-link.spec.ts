/**
 * The sign-in link (DESIGN §8): after ten failures from the member's own address (an office NAT), the
 * right password on /login is answered like a wrong one but mails a single-use link; following it signs
 * the member in, and the same link again says it no longer works, with the way back to sign in.
 */
import { expect, test } from '@playwright/test';
import { acceptDisclaimerUpFront, mailedLink, PASSWORD, uniqueNick } from './fixtures.ts';

const WRONG_PASSWORD = 'Wr0ng!Password';

test.beforeEach(async ({ page }) => acceptDisclaimerUpFront(page));

test('a right password past the limits mails a link that signs in once', async ({ page, request }) => {
  const nick = uniqueNick('lnk');
  const email = `${nick}@example.test`;
  const registered = await request.post('/api/user/register', { data: { nickname: nick, email, password: PASSWORD } });
  expect(registered.ok(), await registered.text()).toBe(true);
  for (let i = 0; i < 10; i++) {
    await request.post('/api/user/login', { data: { nickOrEmail: nick, password: WRONG_PASSWORD } });
  }

  await page.goto('/login');
  await page.getByLabel('Nickname or e-mail').fill(nick);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('we have sent a sign-in link')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  const link = await mailedLink(email, 'loginlink');
  await page.goto(link);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(`Welcome back, ${nick}`)).toBeVisible();

  await page.goto(link);
  await expect(page.getByText('This sign-in link is invalid, has expired or has already been used.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
});
