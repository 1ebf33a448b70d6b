/**
 * Deposits and withdrawals in a browser: a member withdraws in My Tokens and the balance
 * drops; the admin refuses it in the Settlements panel and the balance comes back; the member claims a
 * deposit, the admin approves it and the balance grows. The table shows a state badge's whole word and
 * long hashes shortened, whole in the title, with a copy button.
 */
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import {
  ADMIN,
  adminSignIn,
  apiPost,
  createCurrency,
  expectNoSeriousA11yViolations,
  newPage,
  PASSWORD,
  registerMember,
  signIn,
  uniqueNick,
} from './fixtures.ts';

/** A currency that allows withdrawals (10% tax) and deposits, and 100 of it minted to `nick`. */
async function setUp(request: APIRequestContext, nick: string): Promise<{ ticker: string; name: string }> {
  const login = await request.post('/api/user/login', {
    data: { nickOrEmail: ADMIN.nickname, password: ADMIN.password },
  });
  const auth = { authorization: `Bearer ${(await login.json()).token}` };
  const ticker = `W${Date.now().toString(36).slice(-5).toUpperCase()}`;
  const name = `Wallet Coin ${ticker}`;
  const created = await request.post('/api/bank/createCurrency', {
    headers: auth,
    data: {
      ticker,
      name,
      precision: 2,
      canDeposit: true,
      canWithdraw: true,
      canTransfer: true,
      canMint: true,
      canBurn: true,
      withdrawTax: 0.1,
      imgUrl: 'https://example.com/w.png',
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { currency } = await created.json();
  const minted = await request.post('/api/bank/mint', {
    headers: auth,
    data: { recipientNickName: nick, currencyId: currency.currencyId, amount: '100', note: 'for withdrawals' },
  });
  expect(minted.ok()).toBe(true);
  return { ticker, name };
}

/** The admin's Settlements panel (Currency tab), filtered to pending ones. */
async function openSettlements(admin: Page): Promise<ReturnType<Page['getByRole']>> {
  await admin.goto('/dashboard?view=admin&tab=currency');
  const panel = admin.getByRole('region', { name: 'Settlements' });
  await panel.getByLabel('State').selectOption('pending');
  await panel.getByRole('button', { name: 'Search' }).click();
  return panel;
}

test('withdraw, refused and paid back; deposit, approved and credited', async ({ browser, isMobile, request }) => {
  // Two browsers (the member and the admin) and four money steps: more than the default minute on a busy machine.
  test.slow();
  const member = await newPage(browser, isMobile);
  const nick = uniqueNick('wd');
  await request.post('/api/user/register', {
    data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
  });
  const { ticker, name } = await setUp(request, nick);
  await signIn(member, nick, PASSWORD);

  await member.goto('/userbank?tab=bank');
  await expect(member.getByTestId(`balance-${ticker}`)).toHaveText(`100.00 ${ticker}`);
  await member.getByRole('button', { name: `Withdraw ${ticker}` }).click();
  const dialog = member.getByRole('dialog', { name: 'Withdraw' });
  await dialog.getByLabel('Amount').fill('20');
  await dialog.getByLabel('Wallet address').fill('0xAbCdEf0123456789abcdef0123456789ABCDEF01');
  await expect(
    dialog.getByText(`Withdrawal tax 10%: 2.00 ${ticker}. 22.00 ${ticker} leaves your balance.`),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(member);
  await dialog.getByRole('button', { name: 'Withdraw' }).click();
  await expect(member.getByRole('alert').filter({ hasText: 'an admin will pay it out' })).toBeVisible();
  await expect(member.getByTestId(`balance-${ticker}`)).toHaveText(`78.00 ${ticker}`);

  const admin = await newPage(browser, isMobile);
  await signIn(admin, ADMIN.nickname, ADMIN.password);
  let panel = await openSettlements(admin);
  const row = panel.getByRole('row').filter({ hasText: nick });
  await expect(row).toContainText('Withdrawal');
  await row.getByRole('button', { name: 'Refuse' }).click();
  const refuse = admin.getByRole('dialog', { name: 'Refuse withdrawal' });
  await refuse.getByLabel('Note').fill('wallet on the wrong chain');
  await expectNoSeriousA11yViolations(admin);
  await refuse.getByRole('button', { name: 'Refuse' }).click();
  await expect(admin.getByRole('alert').filter({ hasText: 'Refused the withdrawal of 20.00' })).toBeVisible();

  await member.reload();
  await expect(member.getByTestId(`balance-${ticker}`)).toHaveText(`100.00 ${ticker}`);

  // A deposit claim credits nothing until the admin approves it.
  await member.getByRole('button', { name: 'Deposit' }).click();
  const claim = member.getByRole('dialog', { name: 'Deposit' });
  await claim.getByLabel('Currency').click();
  await member.getByRole('option', { name: `${name} (${ticker})` }).click();
  await claim.getByLabel('Amount').fill('15');
  await claim.getByLabel('Wallet address').fill('0xabcdef0123456789abcdef0123456789abcdef01');
  await claim.getByLabel('Transaction reference').fill('0xfeedface');
  await claim.getByRole('button', { name: 'Claim deposit' }).click();
  await expect(member.getByRole('alert').filter({ hasText: 'an admin will check it' })).toBeVisible();
  await expect(member.getByTestId(`balance-${ticker}`)).toHaveText(`100.00 ${ticker}`);

  panel = await openSettlements(admin);
  const depositRow = panel.getByRole('row').filter({ hasText: nick }).filter({ hasText: 'Deposit' });
  await depositRow.getByRole('button', { name: 'Approve' }).click();
  const approve = admin.getByRole('dialog', { name: 'Approve deposit' });
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(admin.getByRole('alert').filter({ hasText: 'Approved the deposit of 15.00' })).toBeVisible();

  await member.reload();
  await expect(member.getByTestId(`balance-${ticker}`)).toHaveText(`115.00 ${ticker}`);
});

/** Whether `el` shows its whole text: no ellipsis, nothing cut by its box. */
function wholeText(el: Locator): Promise<boolean> {
  return el.evaluate((node) => {
    const inner = (node.querySelector('.mantine-Badge-label') ?? node) as HTMLElement;
    return inner.scrollWidth <= inner.clientWidth + 1 && node.scrollWidth <= (node as HTMLElement).clientWidth + 1;
  });
}

test('Settlements shows the whole state badge and shortened hashes with a copy button', async ({
  browser,
  isMobile,
  request,
}, info) => {
  const adminToken = await adminSignIn(request);
  const { currencyId } = await createCurrency(request, adminToken, { prefix: 'H' });
  await apiPost(request, adminToken, '/api/bank/modifyCurrency', { currencyId, canDeposit: true });
  const nick = uniqueNick('hash');
  const member = await registerMember(request, nick);
  const wallet = '0xAbCdEf0123456789abcdef0123456789ABCDEF01';
  const reference = `0x${'feed'.repeat(15)}beef`;
  await apiPost(request, member.token, '/api/bank/deposit', {
    currencyId,
    amount: '5',
    walletAddress: wallet,
    reference,
  });

  const admin = await newPage(browser, isMobile);
  await signIn(admin);
  await admin.goto('/dashboard?view=admin&tab=currency');
  const panel = admin.getByRole('region', { name: 'Settlements' });
  const row = panel.getByRole('row').filter({ hasText: nick });
  await expect(row).toBeVisible();
  const badge = row.getByText('pending', { exact: true });
  await expect(badge).toBeVisible();
  expect(await wholeText(badge)).toBe(true);
  const short = row.getByTitle(reference);
  await expect(short).toHaveText('0xfeed…beef');
  // The server keeps wallet addresses in lower case.
  await expect(row.getByTitle(wallet.toLowerCase())).toHaveText('0xabcd…ef01');
  await expect(row.getByRole('button', { name: 'Copy transaction reference' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Copy wallet address' })).toBeVisible();
  await expect(row.getByText(reference, { exact: true })).toHaveCount(0);
  await row.scrollIntoViewIfNeeded();
  await admin.screenshot({ path: info.outputPath('settlements-hashes.png'), fullPage: true });
});
