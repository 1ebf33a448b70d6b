/**
 * The Admin Console's user and audit tabs in a browser: User Logs, Access Logs, Admin
 * Logs, User Control and Defcon Level render their data and empty states; deactivating a member signs
 * their open page out; a new defcon level pops up live on another member's page; Guild Control shows its
 * placeholder.
 */
import { expect, type Page, test } from '@playwright/test';
import { ADMIN, expectNoSeriousA11yViolations, newPage, PASSWORD, signIn, uniqueNick } from './fixtures.ts';

/** Opens an Admin Console tab by its URL value. */
async function openTab(page: Page, tab: string): Promise<void> {
  await page.goto(`/dashboard?view=admin&tab=${tab}`);
  await expect(page.getByTestId('admin-console')).toBeVisible();
}

async function registerMember(page: Page, prefix: string): Promise<string> {
  const nick = uniqueNick(prefix);
  const res = await page.request.post('/api/user/register', {
    data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
  });
  expect(res.ok()).toBe(true);
  return nick;
}

test('User Logs, Access Logs and Admin Logs show their rows and their empty states', async ({ browser, isMobile }) => {
  const admin = await newPage(browser, isMobile);
  const nick = await registerMember(admin, 'ulog');
  await signIn(admin, ADMIN.nickname, ADMIN.password);

  await openTab(admin, 'user-logs');
  const users = admin.getByRole('region', { name: 'User Logs' });
  await users.getByLabel('Nickname').fill(nick);
  await users.getByRole('button', { name: 'Search' }).click();
  await expect(users.getByText('1 in all').first()).toBeVisible();
  // A nickname of 12+ characters is shortened; its dialog shows the whole one.
  const short = `${nick.slice(0, 6)}…${nick.slice(-6)}`;
  await users.getByRole('button', { name: short }).click();
  await expect(admin.getByRole('dialog', { name: 'Nickname' })).toContainText(nick);
  await admin.keyboard.press('Escape');
  await expectNoSeriousA11yViolations(admin);
  await users.getByLabel('Nickname').fill('nobodyatallhere');
  await users.getByRole('button', { name: 'Search' }).click();
  await expect(users.getByText('No Users')).toBeVisible();

  await openTab(admin, 'access-logs');
  const access = admin.getByRole('region', { name: 'Access Logs' });
  await access.getByLabel('User').fill(nick);
  await access.getByRole('button', { name: 'Search' }).click();
  // Until the filtered page arrives the table still shows the unfiltered one (every member's sign-ins):
  // wait for the member's one row.
  await expect(access.getByRole('cell', { name: 'Email Login' })).toHaveCount(1);
  await expect(access.getByRole('cell', { name: 'Email Login' })).toBeVisible();
  await access.getByLabel('User').fill('nobodyatallhere');
  await access.getByRole('button', { name: 'Search' }).click();
  await expect(access.getByText('No Access Logs')).toBeVisible();
  await expectNoSeriousA11yViolations(admin);

  await openTab(admin, 'admin-logs');
  const logs = admin.getByRole('region', { name: 'Admin Logs' });
  await logs.getByLabel('Affected user').fill(nick);
  await logs.getByRole('button', { name: 'Search' }).click();
  await expect(logs.getByText('No Admin Action Logs')).toBeVisible();
  await expectNoSeriousA11yViolations(admin);
});

test('deactivating a member in User Control signs their open page out', async ({ browser, isMobile }) => {
  const admin = await newPage(browser, isMobile);
  const member = await newPage(browser, isMobile);
  const nick = await registerMember(member, 'deact');
  await signIn(member, nick, PASSWORD);
  await expect(member.getByRole('heading', { name: `Welcome, ${nick}` })).toBeVisible();

  await signIn(admin, ADMIN.nickname, ADMIN.password);
  await openTab(admin, 'user-control');
  await expect(admin.getByTestId('user-stats')).toBeVisible();
  await admin.getByRole('button', { name: 'Administrate User' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Administrate User' });
  await dialog.getByRole('textbox', { name: 'User Id' }).fill(nick);
  await dialog.getByLabel('Active').selectOption('false');
  await expectNoSeriousA11yViolations(admin);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(admin.getByRole('alert').filter({ hasText: `${nick} has been updated` })).toBeVisible();

  // The member's page hears it over its socket and signs out.
  await expect(member).toHaveURL(/\/login$/, { timeout: 10_000 });
  await member.getByLabel('Nickname or e-mail').fill(nick);
  await member.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await member.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(member.getByRole('alert').filter({ hasText: 'Your account is disabled' })).toBeVisible();

  // The admin log has the row.
  await openTab(admin, 'admin-logs');
  const logs = admin.getByRole('region', { name: 'Admin Logs' });
  await logs.getByLabel('Affected user').fill(nick);
  await logs.getByRole('button', { name: 'Search' }).click();
  await expect(logs.getByRole('cell', { name: 'Administrate User' })).toBeVisible();
});

test('a new defcon level pops up live on another open page', async ({ browser, isMobile }) => {
  const admin = await newPage(browser, isMobile);
  const member = await newPage(browser, isMobile);
  const nick = await registerMember(member, 'defcon');
  await signIn(member, nick, PASSWORD);
  await expect(member.getByRole('heading', { name: `Welcome, ${nick}` })).toBeVisible();

  await signIn(admin, ADMIN.nickname, ADMIN.password);
  await openTab(admin, 'defcon');
  const panel = admin.getByRole('region', { name: 'Defcon Level' });
  try {
    await panel.getByLabel('Level').selectOption('3');
    await panel.getByLabel('Message').fill('Exchange maintenance at noon');
    await expectNoSeriousA11yViolations(admin);
    await panel.getByRole('button', { name: 'Submit' }).click();
    const notice = member.getByRole('dialog', { name: 'Defcon Level 3' });
    await expect(notice).toBeVisible({ timeout: 10_000 });
    await expect(notice).toContainText('Exchange maintenance at noon');
  } finally {
    // Back to 0, so no other test meets the notice.
    await admin
      .getByRole('button', { name: 'Acknowledged' })
      .click({ timeout: 5000 })
      .catch(() => undefined);
    await panel.getByLabel('Level').selectOption('0');
    await panel.getByLabel('Message').fill('');
    await panel.getByRole('button', { name: 'Submit' }).click();
    await expect(admin.getByRole('alert').filter({ hasText: 'Defcon level set to 0' })).toBeVisible();
  }
});

test('Guild Control, which SPEC leaves empty, says it is a placeholder; its neighbours load their own panels', async ({
  browser,
  isMobile,
}) => {
  const admin = await newPage(browser, isMobile);
  await signIn(admin, ADMIN.nickname, ADMIN.password);
  await openTab(admin, 'guild-control');
  await expect(admin.getByRole('heading', { name: 'Guild Control' })).toBeVisible();
  await expect(admin.getByText('Guilds are not part of this beta yet')).toBeVisible();
  await expect(admin.getByText(/coming soon/i)).toHaveCount(0);
  // The next tab's panel is loaded with the tab (each domain's own chunk) and shows its controls.
  await admin.getByRole('tab', { name: 'Defcon Level' }).click();
  await expect(admin.getByRole('region', { name: 'Defcon Level' }).getByLabel('Level')).toBeVisible();
  await expect(admin.getByText('Guilds are not part of this beta yet')).toHaveCount(0);
});
