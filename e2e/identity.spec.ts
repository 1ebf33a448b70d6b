/**
 * Identity in a browser: change the password in /userconfig, forgot password → mail →
 * reset page → sign in, verify the e-mail from the popup and from My Info. Mails are read from the
 * server's outbox (no SMTP_URL in the browser tests), as a newcomer on `make start` would.
 */
import { expect, type Page, test } from '@playwright/test';
import {
  acceptDisclaimerUpFront,
  expectNoSeriousA11yViolations,
  mailedLink,
  PASSWORD,
  uniqueNick,
} from './fixtures.ts';

const NEW_PASSWORD = 'Fr3sh!Passw0rd';

/** Registers a member through the API and opens `path` signed in as them. */
async function signedIn(page: Page, pathname: string): Promise<{ nick: string; email: string }> {
  const nick = uniqueNick('idn');
  const email = `${nick}@example.test`;
  const res = await page.request.post('/api/user/register', { data: { nickname: nick, email, password: PASSWORD } });
  expect(res.ok()).toBe(true);
  const { user, token } = await res.json();
  await page.addInitScript(
    ([u, t]) => {
      // Once per tab: a later sign-out (or a verification) must not be undone by the next navigation.
      if (sessionStorage.getItem('identity-test-started')) return;
      sessionStorage.setItem('identity-test-started', '1');
      localStorage.setItem('user', JSON.stringify(u));
      localStorage.setItem('token', JSON.stringify(t));
      localStorage.setItem('tokenexpires', JSON.stringify(Date.now() + 86_400_000));
    },
    [user, token],
  );
  await page.goto(pathname);
  return { nick, email };
}

async function signInWithForm(page: Page, nick: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Nickname or e-mail').fill(nick);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** True when the text of `email` is drawn in red (its red channel well above its green one). */
async function emailLooksRed(page: Page, email: string): Promise<boolean> {
  const color = await page.getByText(email).evaluate((el) => getComputedStyle(el).color);
  const [r = 0, g = 0] = (color.match(/\d+/g) ?? []).map(Number);
  return r - g > 60;
}

/** Opens My Info: the Profile tab on desktop, Account → Profile in the phone console. */
async function openMyInfo(page: Page, isMobile: boolean): Promise<void> {
  await page.goto('/userbank');
  if (isMobile) {
    await page.getByRole('tab', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Profile' }).click();
  }
  await expect(page.getByRole('heading', { name: 'My Info' })).toBeVisible();
}

test.describe('with the notices accepted', () => {
  test.beforeEach(async ({ page }) => acceptDisclaimerUpFront(page));

  test('change the password in /userconfig, then sign in with the new one', async ({ page }) => {
    const { nick } = await signedIn(page, '/userconfig');
    await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat new password').fill(`${NEW_PASSWORD}x`);
    await expect(page.getByText('passwords do not match')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Change password' })).toBeDisabled();
    await page.getByLabel('Repeat new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Your account has been updated' })).toBeVisible();

    // This session goes on with the fresh token.
    await page.goto('/userbank');
    await expect(page).toHaveURL(/\/userbank/);

    await page.evaluate(() => localStorage.clear());
    await signInWithForm(page, nick, PASSWORD);
    await expect(page.getByRole('alert').filter({ hasText: 'Incorrect password' })).toBeVisible();
    await signInWithForm(page, nick, NEW_PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('forgot password: the mailed link resets it and the new one signs in', async ({ page }) => {
    const nick = uniqueNick('fgt');
    const email = `${nick}@example.test`;
    await page.request.post('/api/user/register', { data: { nickname: nick, email, password: PASSWORD } });

    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forgot your password?' });
    await dialog.getByLabel('Account e-mail').fill(email);
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Send reset link' }).click();
    await expect(dialog.getByRole('button', { name: 'Please wait…' })).toBeDisabled();
    await expect(page.getByRole('alert').filter({ hasText: 'we have sent it a link' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Send reset link' })).toBeEnabled({ timeout: 8000 });

    await page.goto(await mailedLink(email, 'resetpassword'));
    await expect(page.getByRole('heading', { name: 'Reset password' })).toBeVisible();
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('Your password has been reset')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // Five seconds later, to the dashboard (no session: it asks to sign in).
    await expect(page).toHaveURL(/\/(dashboard|login)$/, { timeout: 8000 });

    await signInWithForm(page, nick, NEW_PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('a used reset link says so and moves on', async ({ page }) => {
    const nick = uniqueNick('used');
    const email = `${nick}@example.test`;
    await page.request.post('/api/user/register', { data: { nickname: nick, email, password: PASSWORD } });
    await page.request.post('/api/user/forgotPassword', { data: { email } });
    const link = await mailedLink(email, 'resetpassword');
    const token = link.split('/').pop();
    expect((await page.request.post('/api/user/resetPassword', { data: { token, password: NEW_PASSWORD } })).ok()).toBe(
      true,
    );
    await page.goto(link);
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat new password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('This password reset link is invalid or has already been used.')).toBeVisible();
  });

  test('verify the e-mail from My Info: the red e-mail turns normal', async ({ page, isMobile }) => {
    const { email } = await signedIn(page, '/userbank');
    await openMyInfo(page, isMobile);
    expect(await emailLooksRed(page, email)).toBe(true);
    await page.getByRole('button', { name: 'Verify Email' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: `We have sent a verification link to ${email}` }),
    ).toBeVisible();

    await page.goto(await mailedLink(email, 'verifyemail'));
    await expect(page.getByText('Your e-mail is verified')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // A verification keeps the session; five seconds later, the dashboard.
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 8000 });
    await openMyInfo(page, isMobile);
    await expect(page.getByText(email)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Verify Email' })).toHaveCount(0);
    expect(await emailLooksRed(page, email)).toBe(false);
  });
});

test('the verify popup opens once, and its link verifies the e-mail', async ({ page }) => {
  // The disclaimer only: the popup is what this test is about.
  await page.addInitScript(() => {
    localStorage.setItem('disclaimer', JSON.stringify({ version: 'v0.0.1', nextShow: Date.now() + 86_400_000 }));
  });
  const { email } = await signedIn(page, '/dashboard');
  const popup = page.getByRole('region', { name: 'Verify your e-mail' });
  await expect(popup).toBeVisible();
  await expect(popup).toContainText(email);
  await expectNoSeriousA11yViolations(page);
  await popup.getByRole('button', { name: 'Send verification e-mail' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: `We have sent a verification link to ${email}` }),
  ).toBeVisible();
  await expect(popup).toBeHidden();

  // At most once per 24 hours: a reload does not bring it back.
  await page.reload();
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible();
  await expect(popup).toHaveCount(0);

  await page.goto(await mailedLink(email, 'verifyemail'));
  await expect(page.getByText('Your e-mail is verified')).toBeVisible();
});
