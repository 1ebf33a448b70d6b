/**
 * Notifications in a browser (DESIGN §11.3), desktop and phone: a member receives a transfer from another
 * and sees the bell's count and the item arrive live with a toast, opens it (marked read, its page
 * opens), marks all read; pages and filters /notifications; chooses a kind by e-mail in Settings; the
 * admin broadcasts to the creators (a role only this spec's member has among those signed in here, so
 * no other spec's member gets it) and the member sees it live. Screenshots in the results.
 */
import { expect, type Page, test } from '@playwright/test';
import {
  adminSignIn,
  apiPost,
  expectNoSeriousA11yViolations,
  newPage,
  PASSWORD,
  registerMember,
  signIn,
  socketSignedIn,
  uniqueNick,
} from './fixtures.ts';

const bellOf = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const panelOf = (page: Page) => page.getByRole('dialog', { name: 'Notifications' });

test('a transfer and a broadcast reach the bell live; the page pages and filters; a setting is saved', async ({
  browser,
  isMobile,
  request,
}, info) => {
  // Three pages and fourteen transfers on a shared machine.
  test.setTimeout(150_000);
  const adminToken = await adminSignIn(request);
  const alice = await registerMember(request, uniqueNick('nta'));
  const bobNick = uniqueNick('ntb');
  await registerMember(request, bobNick);
  // Bob is a creator before he signs in, so his socket is one of the creators'.
  await apiPost(request, adminToken, '/api/user/administrateUser', {
    nickname: bobNick,
    role: 'creator',
    active: true,
  });
  await apiPost(request, adminToken, '/api/bank/mint', {
    recipientNickName: alice.user.nickname,
    currencyId: 1,
    amount: '100',
    note: 'notifications test',
  });
  const pay = (note: string) =>
    apiPost(request, alice.token, '/api/bank/p2pTransfer', {
      recipientNickName: bobNick,
      currencyId: 1,
      amount: '1',
      note,
    });

  const page = await newPage(browser, isMobile);
  // A transfer committed before Bob's socket signs in reaches the bell by a read, without a toast.
  const live = socketSignedIn(page);
  await signIn(page, bobNick, PASSWORD);
  await expect(bellOf(page)).toHaveAccessibleName('Notifications');
  await live;

  // A transfer arrives live: the count, a toast, and the item in the panel.
  await pay('lunch money');
  await expect(bellOf(page)).toHaveAccessibleName('Notifications, 1 unread');
  await expect(page.getByRole('alert').filter({ hasText: `From ${alice.user.nickname}: "lunch money"` })).toBeVisible();
  await bellOf(page).click();
  const panel = panelOf(page);
  await expect(panel.getByRole('button', { name: /^Unread: You received/ })).toBeVisible();
  await expect(panel.getByText('just now').or(panel.getByText('a few seconds ago')).first()).toBeVisible();
  await page.screenshot({ path: info.outputPath('bell-panel.png') });
  // Opening it marks it read and goes to its page.
  await panel.getByRole('button', { name: /^Unread: You received/ }).click();
  await expect(page).toHaveURL(/\/userbank$/);
  await expect(bellOf(page)).toHaveAccessibleName('Notifications');

  // Eleven more: the panel shows the newest ten; Mark all as read clears the count.
  for (let i = 1; i <= 11; i++) await pay(`payment ${i}`);
  await expect(bellOf(page)).toHaveAccessibleName('Notifications, 11 unread');
  await bellOf(page).click();
  await expect(panel.getByRole('listitem')).toHaveCount(10);
  await expect(panel.getByText(`From ${alice.user.nickname}: "payment 11"`)).toBeVisible();
  await panel.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(bellOf(page)).toHaveAccessibleName('Notifications');
  await expect(panel.getByRole('button', { name: /^Unread:/ })).toHaveCount(0);

  // Two unread among fourteen on the page: paged, then only the unread.
  await pay('payment 12');
  await pay('payment 13');
  await expect(bellOf(page)).toHaveAccessibleName('Notifications, 2 unread');
  await panel.getByRole('button', { name: 'See all' }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  const items = page.getByRole('list', { name: 'Notification list' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  await expect(page.getByText('Page 1 of 2 · 14 in all')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(items).toHaveCount(4);
  await expect(items.last()).toContainText('lunch money');
  await page.getByRole('switch', { name: 'Unread only' }).click({ force: true });
  await expect(items).toHaveCount(2);
  await expect(page.getByText('Page 1 of 1 · 2 in all')).toBeVisible();
  await page.screenshot({ path: info.outputPath('notifications-page.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'All notifications marked as read' })).toBeVisible();
  await expect(page.getByText('No unread notifications.')).toBeVisible();
  await expect(bellOf(page)).toHaveAccessibleName('Notifications');

  // Settings: transfers also by e-mail; security always.
  await page.goto('/userconfig#notifications');
  const card = page.getByRole('region', { name: 'Notifications' });
  await expect(card.getByRole('switch', { name: 'Security: also by e-mail' })).toBeDisabled();
  await expect(card.getByRole('switch', { name: 'Security: also by e-mail' })).toBeChecked();
  await expect(card.getByText('E-mails need a confirmed address')).toBeVisible();
  const transfers = card.getByRole('switch', { name: 'Transfers received: also by e-mail' });
  await expect(transfers).not.toBeChecked();
  await transfers.click({ force: true });
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Notification settings saved' })).toBeVisible();
  await page.reload();
  await expect(transfers).toBeChecked();
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('settings-card.png') });

  // The admin broadcasts to the creators; Bob sees it live.
  const admin = await newPage(browser, isMobile);
  await signIn(admin);
  await admin.goto('/dashboard?view=admin&tab=defcon');
  const form = admin.getByRole('region', { name: 'Broadcast' });
  await form.getByRole('button', { name: 'Send broadcast' }).click();
  await expect(form.getByText('Title must be 1 to 100 characters').first()).toBeVisible();
  const title = `Creators' news ${uniqueNick('')}`;
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Body').fill('The creator tools have a new look.');
  await form.getByLabel('Link').fill('//elsewhere.example');
  await form.getByLabel('To').selectOption({ label: 'Every creator' });
  await form.getByRole('button', { name: 'Send broadcast' }).click();
  await expect(form.getByText('Link must be a path of this site (/...) or an https URL').first()).toBeVisible();
  await form.getByLabel('Link').fill('/userconfig#notifications');
  // Bob's toast closes after five seconds: it is watched for from the moment the broadcast is sent.
  await Promise.all([
    expect(page.getByRole('alert').filter({ hasText: title })).toBeVisible(),
    form.getByRole('button', { name: 'Send broadcast' }).click(),
  ]);
  await expect(admin.getByRole('alert').filter({ hasText: 'Broadcast sent to every creator' })).toBeVisible();
  await expect(form.getByRole('list', { name: 'Broadcasts sent' }).getByText(title)).toBeVisible();
  await admin.screenshot({ path: info.outputPath('broadcast-form.png'), fullPage: true });

  await expect(bellOf(page)).toHaveAccessibleName('Notifications, 1 unread');
  await bellOf(page).click();
  await expect(panel.getByRole('button', { name: `Unread: ${title}` })).toBeVisible();
  await page.screenshot({ path: info.outputPath('bell-broadcast.png') });
  await admin.context().close();
  await page.context().close();
});
