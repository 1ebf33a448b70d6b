/**
 * The sign-in link (DESIGN §8): after ten failures from the member's own address (an office NAT), the
 * right password on /login is answered like a wrong one but mails a single-use link; following it signs
 * the member in, and the same link again says it no longer works, with the way back to sign in.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { acceptDisclaimerUpFront, PASSWORD, uniqueNick } from './fixtures.ts';

const OUTBOX = path.resolve(import.meta.dirname, '../.cache/e2e-data/outbox');
const WRONG_PASSWORD = 'Wr0ng!Password';

test.beforeEach(async ({ page }) => acceptDisclaimerUpFront(page));

/** The newest `/loginlink/…` path mailed to `email` (from the server's outbox). */
async function mailedLoginLink(email: string): Promise<string> {
  const pattern = /https?:\/\/[^/\s]+(\/loginlink\/[A-Za-z0-9_-]{150,255})/;
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const files = (await readdir(OUTBOX).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
        for (const file of files.reverse()) {
          const raw = (await readFile(path.join(OUTBOX, file), 'utf8')).replace(/=\r?\n/g, '');
          if (!raw.includes(`To: ${email}`)) continue;
          found = pattern.exec(raw)?.[1];
          if (found) return true;
        }
        return false;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found as string;
}

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

  const link = await mailedLoginLink(email);
  await page.goto(link);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(`Welcome back, ${nick}`)).toBeVisible();

  await page.goto(link);
  await expect(page.getByText('This sign-in link is invalid, has expired or has already been used.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
});
