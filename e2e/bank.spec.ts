/**
 * The whole first job of Starlight in a browser: two members register, the admin mints SD to one in the
 * Admin Console, that member sends SD to the other through the Transfer popup (1% tax), both see their
 * balances and log rows.
 */
import { type Browser, expect, type Page, test } from '@playwright/test';
import { ADMIN, acceptDisclaimerUpFront, expectNoSeriousA11yViolations, PASSWORD, uniqueNick } from './fixtures.ts';

async function newPage(browser: Browser, isMobile: boolean): Promise<Page> {
  const context = await browser.newContext(
    isMobile
      ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
      : { viewport: { width: 1280, height: 800 } },
  );
  const page = await context.newPage();
  await acceptDisclaimerUpFront(page);
  return page;
}

async function registerInUi(page: Page, nick: string): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('Nickname').fill(nick);
  await page.getByLabel('E-mail').fill(`${nick}@example.test`);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${nick}` })).toBeVisible();
}

/** Opens the member's tokens: the Bank tab on desktop, the Assets tab of the phone console. */
async function openTokens(page: Page): Promise<void> {
  await page.goto('/userbank?tab=bank');
}

/** The transaction log's entries: table rows on a desktop, one card each on a phone. */
function logEntries(page: Page, isMobile: boolean) {
  return isMobile
    ? page.getByRole('list', { name: 'Transaction log' }).getByRole('listitem')
    : page.getByRole('table', { name: 'Transaction log' }).getByRole('row');
}

test('register, receive minted SD, send it with tax, see both histories', async ({ browser, isMobile }) => {
  const alice = uniqueNick('alice');
  const bob = uniqueNick('bob');
  const pageA = await newPage(browser, isMobile);
  const pageB = await newPage(browser, isMobile);
  await registerInUi(pageA, alice);
  await registerInUi(pageB, bob);

  // A member with no balance sees the SPEC empty state.
  await openTokens(pageB);
  await expect(pageB.getByText('You have no tokens.')).toBeVisible();

  // The admin mints 100 SD to Alice in the Admin Console.
  const admin = await newPage(browser, isMobile);
  await admin.goto('/login');
  await admin.getByLabel('Nickname or e-mail').fill(ADMIN.nickname);
  await admin.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN.password);
  await admin.getByRole('button', { name: 'Sign in', exact: true }).click();
  await admin.getByRole('button', { name: 'Admin' }).click();
  await admin.getByTestId('open-mint').click();
  const mint = admin.getByRole('dialog', { name: 'Mint Currency' });
  await mint.getByLabel('Recipient nickname').fill(alice);
  await mint.getByTestId('mint-currency').selectOption({ label: 'SD · Stardust' });
  await mint.getByLabel('Amount').fill('100');
  await mint.getByLabel('Note').fill('welcome gift');
  await mint.getByTestId('mint-submit').click();
  await expect(admin.getByRole('alert').filter({ hasText: `Minted 100.00 SD to ${alice}` })).toBeVisible();

  // Alice sees 100 SD and sends 40 SD to Bob: the popup shows the 1% tax first.
  await openTokens(pageA);
  await expect(pageA.getByTestId('balance-SD')).toHaveText('100.00 SD');
  if (isMobile) {
    await pageA.getByRole('tab', { name: 'Transfers' }).click();
    await pageA.getByRole('button', { name: 'P2P Transfer' }).click();
  } else {
    await pageA.getByRole('button', { name: 'Transfer SD' }).click();
  }
  const transfer = pageA.getByRole('dialog', { name: 'Transfer' });
  await transfer.getByLabel('Recipient nickname').fill(bob);
  if (isMobile) {
    await transfer.getByLabel('Currency').click();
    await pageA.getByRole('option', { name: 'Stardust (SD)' }).click();
  }
  await transfer.getByLabel('Amount').fill('40');
  await expect(
    transfer.getByText('Transfer tax 1%: 0.40 SD (rounded up to the smallest unit). The recipient receives 39.60 SD.'),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(pageA);
  await transfer.getByRole('button', { name: 'Send' }).click();
  await expect(pageA.getByRole('alert').filter({ hasText: `Sent 39.60 SD to ${bob} (tax 0.40 SD)` })).toBeVisible();
  await expect(transfer).toBeHidden();

  if (isMobile) await pageA.getByRole('tab', { name: 'Assets' }).click();
  await expect(pageA.getByTestId('balance-SD')).toHaveText('60.00 SD');

  // Bob sees what he received.
  await openTokens(pageB);
  await pageB.getByRole('button', { name: 'Refresh tokens' }).click();
  await expect(pageB.getByTestId('balance-SD')).toHaveText('39.60 SD');

  // Both histories show the transfer.
  for (const [page, other, sign] of [
    [pageA, bob, '−'],
    [pageB, alice, '+'],
  ] as const) {
    if (isMobile) {
      await page.getByRole('button', { name: 'Stardust' }).click();
    } else {
      await page.goto('/userbank?tab=logs');
    }
    const row = logEntries(page, isMobile).filter({ hasText: other }).filter({ hasText: 'Transfer' });
    await expect(row).toContainText(`${sign}39.60 SD`);
  }
  // Alice also sees her minted SD and the tax row.
  // By the category's own label: "To admin" + "Transfer tax…" also holds the letters "mint".
  const category = (label: string) => ({ has: pageA.getByText(label, { exact: true }) });
  await expect(logEntries(pageA, isMobile).filter(category('Mint'))).toContainText('+100.00 SD');
  await expect(logEntries(pageA, isMobile).filter(category('Tax'))).toContainText('−0.40 SD');

  // The admin finds the transfer in Tnx Logs.
  await admin.goto('/dashboard?view=admin&tab=tnx');
  await admin.getByTestId('tnx-nickname').fill(bob);
  await admin.getByTestId('tnx-search').click();
  await expect(admin.getByTestId('tnx-row').filter({ hasText: alice }).first()).toContainText('39.60');
});

test('money received shows up live, without reloading', async ({ browser, isMobile, request }) => {
  const register = async (nick: string) => {
    const res = await request.post('/api/user/register', {
      data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
    });
    expect(res.ok()).toBe(true);
    return ((await res.json()) as { token: string }).token;
  };
  const alice = uniqueNick('liva');
  const bob = uniqueNick('livb');
  const aliceToken = await register(alice);
  await register(bob);
  const login = await request.post('/api/user/login', {
    data: { nickOrEmail: ADMIN.nickname, password: ADMIN.password },
  });
  const adminToken = ((await login.json()) as { token: string }).token;
  for (const [to, currencyId, amount] of [
    [alice, 1, '50'],
    [bob, 2, '5'],
  ] as const) {
    const res = await request.post('/api/bank/mint', {
      headers: { authorization: `Bearer ${adminToken}` },
      data: { recipientNickName: to, currencyId, amount, note: 'live test' },
    });
    expect(res.ok()).toBe(true);
  }

  // Bob signs in and looks at his tokens: SN only.
  const page = await newPage(browser, isMobile);
  await page.goto('/login');
  await page.getByLabel('Nickname or e-mail').fill(bob);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${bob}` })).toBeVisible();
  await openTokens(page);
  await expect(page.getByTestId('balance-SN')).toHaveText('5.00 SN');
  await expect(page.getByTestId('balance-SD')).toHaveCount(0);

  // Alice sends him SD from elsewhere: his page shows it without a reload or a click.
  const sent = await request.post('/api/bank/p2pTransfer', {
    headers: { authorization: `Bearer ${aliceToken}` },
    data: { recipientNickName: bob, currencyId: 1, amount: '20' },
  });
  expect(sent.ok()).toBe(true);
  await expect(page.getByTestId('balance-SD')).toHaveText('19.80 SD');
});
