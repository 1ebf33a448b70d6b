/**
 * Two-factor authentication in a browser (DESIGN §11.1): a member enrols an authenticator app in Settings
 * (QR code, secret, a first code), sees the ten recovery codes once, signs out, signs in with a code on
 * the same screen, signs in again with a recovery code, and turns it off. Codes are made with otplib from
 * the secret the page shows, as the app on a phone would. Desktop and phone; screenshots kept.
 */
import { expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { expectNoSeriousA11yViolations, newPage, PASSWORD, uniqueNick } from './fixtures.ts';

/** The code of `secret` `steps` time steps (30 s) from now. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/**
 * A code the server takes, as an app on a phone shows it: the current time step, or the one after the step
 * last used when that one was already used (a code works once). Waits when that step is still two ahead.
 */
function codeSource(secret: string): () => Promise<string> {
  let last = 0;
  return async () => {
    const now = Math.floor(Date.now() / 30_000);
    const step = Math.max(now, last + 1);
    if (step > now + 1) await new Promise((r) => setTimeout(r, (step - 1) * 30_000 - Date.now() + 100));
    last = step;
    return generate({ secret, epoch: step * 30 });
  };
}

async function signOut(page: Page): Promise<void> {
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** Fills the password step and expects the code step on the same screen. */
async function passwordStep(page: Page, nick: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Nickname or e-mail').fill(nick);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
}

test('enrols an authenticator app, signs in with a code and with a recovery code, turns it off', async ({
  browser,
  isMobile,
  request,
}, info) => {
  // Five sign-ins and two accessibility scans: more than the default minute on a busy machine.
  test.setTimeout(180_000);
  const nick = uniqueNick('totp');
  const reg = await request.post('/api/user/register', {
    data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
  });
  expect(reg.ok()).toBe(true);
  const page = await newPage(browser, isMobile);
  await page.goto('/login');
  await page.getByLabel('Nickname or e-mail').fill(nick);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Enrol: the QR code and the secret, then a first code.
  await page.goto('/userconfig');
  const card = page.getByRole('region', { name: 'Two-factor authentication' });
  await expect(card.getByText('Off', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Set up authenticator app' }).click();
  await expect(card.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = ((await card.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const first = card.getByRole('textbox', { name: 'Authentication code' });
  await expect(first).toBeFocused();
  await expect(first).toHaveAttribute('inputmode', 'numeric');
  await expect(first).toHaveAttribute('autocomplete', 'one-time-code');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('mfa-enrol.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page);
  const nextCode = codeSource(secret);
  await first.fill(await nextCode());
  await card.getByRole('button', { name: 'Turn on' }).click();

  // The ten recovery codes, once.
  const codes = card.getByRole('code').filter({ hasText: /^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/ });
  await expect(codes).toHaveCount(10);
  const recoveryCodes = (await codes.allTextContents()).map((c) => c.trim());
  await expect(card.getByRole('button', { name: 'Copy' })).toBeVisible();
  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('starlight-recovery-codes.txt');
  await page.screenshot({ path: info.outputPath('mfa-recovery-codes.png'), fullPage: true });
  await card.getByRole('button', { name: 'I have saved them' }).click();
  await expect(card.getByText('On', { exact: true })).toBeVisible();
  await expect(codes).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('mfa-on.png'), fullPage: true });

  // Sign out, sign in: the code step on the same screen.
  await signOut(page);
  await passwordStep(page, nick);
  const code = page.getByRole('textbox', { name: 'Authentication code' });
  await expect(code).toBeFocused();
  await expect(code).toHaveAttribute('inputmode', 'numeric');
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await page.screenshot({ path: info.outputPath('mfa-code-step.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page);
  // A wrong code says so and stays on the step.
  const right = new Set(await Promise.all([-1, 0, 1].map((s) => codeAt(secret, s))));
  const wrong = ['000000', '111111', '222222', '333333'].find((c) => !right.has(c)) as string;
  await code.fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid code' })).toBeVisible();
  await code.fill(await nextCode());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Sign out, sign in with a recovery code.
  await signOut(page);
  await passwordStep(page, nick);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  const recovery = page.getByRole('textbox', { name: 'Recovery code' });
  await expect(recovery).toBeFocused();
  await page.screenshot({ path: info.outputPath('mfa-recovery-step.png'), fullPage: true });
  await recovery.fill(recoveryCodes[0] as string);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Turn it off with a code.
  await page.goto('/userconfig');
  await card.getByRole('button', { name: 'Turn off' }).click();
  await card.getByRole('textbox', { name: 'Authentication code' }).fill(await nextCode());
  await card.getByRole('button', { name: 'Turn off' }).click();
  await expect(card.getByText('Off', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Set up authenticator app' })).toBeVisible();

  // Signing in asks for no code now.
  await signOut(page);
  await page.getByLabel('Nickname or e-mail').fill(nick);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.context().close();
});
