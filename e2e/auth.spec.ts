import { expect, test } from '@playwright/test';
import { acceptDisclaimerUpFront, expectNoSeriousA11yViolations, PASSWORD, uniqueNick } from './fixtures.ts';

test.beforeEach(async ({ page }) => acceptDisclaimerUpFront(page));

test('register: hints, inline messages, then the dashboard', async ({ page }) => {
  const nick = uniqueNick('reg');
  await page.goto('/register');
  const submit = page.getByRole('button', { name: 'Complete all fields' });
  await expect(submit).toBeDisabled();

  await page.getByLabel('Nickname').fill('ab');
  await page.getByLabel('E-mail').click();
  await expect(page.getByText('Nickname must be 3 to 32 letters or digits')).toBeVisible();
  await page.getByLabel('Nickname').fill(nick);
  await page.getByLabel('E-mail').fill(`${nick}@example.test`);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('weakpass');
  await page.getByLabel('Confirm password').fill('weakpas');
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm password').fill('weakpass');
  await expect(page.getByText('Passwords match')).toBeVisible();
  await expect(page.getByText('Password not strong enough')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: `Welcome, ${nick}` })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: `Welcome to Starlight, ${nick}` })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('the referral link fills the referrer', async ({ page }) => {
  await page.goto('/register/admin');
  await expect(page.getByLabel('Referrer (optional)')).toHaveValue('admin');
});

test('a wrong password is toasted and nothing else happens', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Nickname or e-mail').fill('nobody-here');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Wrong-Passw0rd!');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Incorrect password' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('toasts close by themselves after five seconds', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Nickname or e-mail').fill('nobody-here');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Wrong-Passw0rd!');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const toast = page.getByRole('alert').filter({ hasText: 'Incorrect password' });
  await expect(toast).toBeVisible();
  await expect(toast).toBeHidden({ timeout: 8000 });
});

test('without a session the dashboard sends you to /login; logout ends the session', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);

  const nick = uniqueNick('out');
  const res = await page.request.post('/api/user/register', {
    data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
  });
  expect(res.ok()).toBe(true);
  await page.getByLabel('Nickname or e-mail').fill(nick);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${nick}` })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('alert').filter({ hasText: 'You have been logged out' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('an expired session signs out with the SPEC message', async ({ page }) => {
  const nick = uniqueNick('exp');
  const res = await page.request.post('/api/user/register', {
    data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
  });
  const { user, token } = await res.json();
  await page.addInitScript(
    ([u, t]) => {
      localStorage.setItem('user', JSON.stringify(u));
      localStorage.setItem('token', JSON.stringify(t));
      localStorage.setItem('tokenexpires', JSON.stringify(Date.now() - 1000));
    },
    [user, token],
  );
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await expect(
    page.getByRole('alert').filter({ hasText: 'Your credentials have expired, please login again' }),
  ).toBeVisible();
});
