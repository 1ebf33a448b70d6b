/**
 * A newcomer's first hour with the account pages, on desktop and phone:
 * - Register says each field's rule in words ('Nickname must be 3 to 32 letters or digits'), never
 *   `"nickname" contains an invalid value`; a bad verify, reset or consent link is a page that says what
 *   happened and what to do next, with a button (§6).
 * - Verifying the e-mail keeps the member signed in and goes where it says (the dashboard; sign-in for a
 *   member who is signed out); after a reset the page says it takes the member to sign in, and does (§7).
 * - Get Key without a key says 'You have no key yet: press New Key'; the first New Key speaks of no old
 *   key (§8).
 * Screens are saved under .cache/e2e-screens-auth18 for a person to look at.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  acceptDisclaimerUpFront,
  expectNoSeriousA11yViolations,
  mailedLink,
  PASSWORD,
  uniqueNick,
} from './fixtures.ts';

const NEW_PASSWORD = 'Fr3sh!Passw0rd';
/** A well-formed token (SPEC §5: 150 to 255 characters) that was never issued. */
const UNKNOWN_TOKEN = 'x'.repeat(192);

test.beforeEach(async ({ page }) => acceptDisclaimerUpFront(page));

async function screen(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `.cache/e2e-screens-auth18/${name}-${test.info().project.name}.png` });
}

/** A member registered through the API: nickname, e-mail and bearer token. */
async function register(request: APIRequestContext, prefix: string) {
  const nick = uniqueNick(prefix);
  const email = `${nick}@example.test`;
  const res = await request.post('/api/user/register', { data: { nickname: nick, email, password: PASSWORD } });
  expect(res.ok(), await res.text()).toBe(true);
  const { user, token } = (await res.json()) as { user: unknown; token: string };
  return { nick, email, user, token };
}

/**
 * Stores the session once per tab (not again on each navigation), so a page that signs the member out
 * is seen to.
 */
async function signInOnce(page: Page, session: { user: unknown; token: string }): Promise<void> {
  await page.addInitScript(
    ([u, t]) => {
      if (sessionStorage.getItem('auth18-started')) return;
      sessionStorage.setItem('auth18-started', '1');
      localStorage.setItem('user', JSON.stringify(u));
      localStorage.setItem('token', JSON.stringify(t));
      localStorage.setItem('tokenexpires', JSON.stringify(Date.now() + 86_400_000));
    },
    [session.user, session.token] as const,
  );
}

test.describe('§6 words, not validation text', () => {
  test('register says each field’s rule in words', async ({ page }) => {
    await page.goto('/register');
    await page.getByLabel('Nickname').fill('ab');
    await page.getByLabel('E-mail').fill('not-an-address');
    await page.getByLabel('Referrer (optional)').fill('a!');
    await page.getByRole('textbox', { name: 'Password', exact: true }).click();
    await page.getByLabel('Nickname').click();
    await expect(page.getByText('Nickname must be 3 to 32 letters or digits')).toBeVisible();
    await expect(page.getByText('E-mail must be a valid address, like name@example.com')).toBeVisible();
    await page.getByLabel('E-mail').click();
    await expect(page.getByText("Referrer must be a member's nickname: 3 to 32 letters or digits")).toBeVisible();
    await expect(page.getByText('contains an invalid value')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await screen(page, 'register-words');
  });

  test('a malformed verify link is a page with words and a next step, signed out and in', async ({ page, request }) => {
    await page.goto('/verifyemail/abc');
    await expect(page.getByText('This verification link is invalid or has already been used.')).toBeVisible();
    await expect(page.getByText('Sign in and ask for a new one from your account page.')).toBeVisible();
    await expect(page.getByText('contains an invalid value')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await screen(page, 'verify-bad-link-signed-out');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/login$/);

    const member = await register(request, 'badv');
    await signInOnce(page, member);
    await page.goto(`/verifyemail/${UNKNOWN_TOKEN}`);
    await expect(page.getByText('This verification link is invalid or has already been used.')).toBeVisible();
    await screen(page, 'verify-bad-link-signed-in');
    await page.getByRole('link', { name: 'Go to my account' }).click();
    await expect(page).toHaveURL(/\/userbank$/);
  });

  test('a malformed reset link says so at once, before any password is typed', async ({ page }) => {
    await page.goto('/resetpassword/abc');
    await expect(page.getByText('This password reset link is invalid or has already been used.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'New password', exact: true })).toHaveCount(0);
    await expect(page.getByText('contains an invalid value')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await screen(page, 'reset-bad-link');
    await page.getByRole('link', { name: 'Go to sign in' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a bad consent link is a page with words and a way on', async ({ page }) => {
    await page.goto('/loginCApp/not-a-request');
    await expect(page.getByText('This sign-in link is invalid.')).toBeVisible();
    await expect(page.getByText('Go back to the app and choose to sign in with Starlight again')).toBeVisible();
    await expect(page.getByText('contains an invalid value')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await screen(page, 'consent-bad-link');
    await page.getByRole('link', { name: 'Go to the Starlight home page' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('§7 the result pages go where they say', () => {
  test('verifying keeps the member signed in and goes to the dashboard', async ({ page, request }) => {
    const member = await register(request, 'keep');
    const sent = await request.post('/api/user/sendVerificationEmail', {
      headers: { authorization: `Bearer ${member.token}` },
      data: {},
    });
    expect(sent.ok()).toBe(true);
    await signInOnce(page, member);
    await page.goto(await mailedLink(member.email, 'verifyemail'));
    await expect(page.getByText('Your e-mail is verified')).toBeVisible();
    await expect(page.getByText('Taking you to your dashboard in 5 seconds…')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screen(page, 'verify-done-signed-in');
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 8000 });
    await expect(page.getByRole('heading', { name: `Welcome, ${member.nick}` })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(JSON.stringify(member.token));
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
    expect(stored.isEmailVerified).toBe(true);
  });

  test('verifying while signed out says it takes the member to sign in, and does', async ({ page, request }) => {
    const member = await register(request, 'out');
    await request.post('/api/user/sendVerificationEmail', {
      headers: { authorization: `Bearer ${member.token}` },
      data: {},
    });
    await page.goto(await mailedLink(member.email, 'verifyemail'));
    await expect(page.getByText('Your e-mail is verified')).toBeVisible();
    await expect(page.getByText('Taking you to sign in in 5 seconds…')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, { timeout: 8000 });
  });

  test('after a reset the page says it takes the member to sign in, and does', async ({ page, request }) => {
    const member = await register(request, 'rst');
    await signInOnce(page, member);
    await request.post('/api/user/forgotPassword', { data: { email: member.email } });
    const link = await mailedLink(member.email, 'resetpassword');
    await page.goto(link);
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('Your password has been reset')).toBeVisible();
    await expect(page.getByText('Taking you to sign in in 5 seconds…')).toBeVisible();
    await expect(page.getByText('your dashboard')).toHaveCount(0);
    await screen(page, 'reset-done');
    await expect(page).toHaveURL(/\/login$/, { timeout: 8000 });

    // The same link again: used, so the page says so and how to get a new one.
    await page.goto(link);
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat new password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('This password reset link is invalid or has already been used.')).toBeVisible();
    await expect(page.getByText('press Forgot password? and enter your e-mail')).toBeVisible();
  });
});

test('§8 Get Key without a key says so; the first New Key speaks of no old key', async ({ page, request }) => {
  const member = await register(request, 'nokey');
  await signInOnce(page, member);
  await page.goto('/userconfig');
  // SPEC's panel works on the key named Default; the scoped keys' card lists it too.
  const panel = page.getByRole('region', { name: 'Default API key' });
  const shown = panel.getByTestId('api-key');
  await expect(shown).toHaveText('No Key');
  const toast = (text: string) => page.getByRole('alert').filter({ hasText: text });

  await panel.getByRole('button', { name: 'Get Key' }).click();
  await expect(toast('You have no key yet: press New Key')).toBeVisible();
  await expect(shown).toHaveText('No Key');
  await expectNoSeriousA11yViolations(page);
  await panel.getByRole('button', { name: 'Disable' }).scrollIntoViewIfNeeded();
  await screen(page, 'apikey-none');

  await panel.getByRole('button', { name: 'New Key' }).click();
  await expect(toast('Your new API key is ready')).toBeVisible();
  await expect(toast('old one')).toHaveCount(0);
  await expect(shown).toHaveText(/^sl_•+$/);
  await expect(page.getByRole('listitem', { name: 'Default' })).toBeVisible();

  await panel.getByRole('button', { name: 'New Key' }).click();
  await expect(toast('the old one no longer works')).toBeVisible();
  await panel.getByRole('button', { name: 'Get Key' }).click();
  await expect(toast('Your API key is loaded')).toBeVisible();
  await screen(page, 'apikey-renewed');
});
