/**
 * Wallet sign-in in the browser (SPEC §2 wallet flow, §8 wallet messages; DESIGN §8): an EIP-1193
 * provider injected as `window.ethereum` whose `personal_sign` is answered by a viem private-key
 * account in the test process, so the server checks a real EIP-4361 signature.
 */
import { expect, type Page, test } from '@playwright/test';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { acceptDisclaimerUpFront, expectNoSeriousA11yViolations } from './fixtures.ts';

test.beforeEach(async ({ page }) => acceptDisclaimerUpFront(page));

/**
 * Installs a fake browser wallet for `account` on `page` (before any navigation): accounts, chain 1,
 * and `personal_sign` ([dataHex, address]) signed in Node. Options: `rejectSign`, the user refuses to
 * sign (EIP-1193 code 4001); `signDelayMs`, the user takes that long to sign; `accounts: 'none'`, no
 * account is selected; `accounts: 'error'`, the wallet fails to connect.
 */
async function injectWallet(
  page: Page,
  account: PrivateKeyAccount,
  options: { rejectSign?: boolean; signDelayMs?: number; accounts?: 'none' | 'error' } = {},
) {
  await page.exposeFunction('__e2eSignMessage', (dataHex: `0x${string}`) =>
    account.signMessage({ message: { raw: dataHex } }),
  );
  await page.addInitScript(
    ({ address, rejectSign, signDelayMs, accounts }) => {
      const w = window as unknown as {
        ethereum: unknown;
        __e2eSignMessage(dataHex: string): Promise<string>;
      };
      const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });
      w.ethereum = {
        isMetaMask: true,
        async request({ method, params }: { method: string; params?: unknown[] }) {
          switch (method) {
            case 'eth_requestAccounts':
            case 'eth_accounts':
              if (accounts === 'error') throw rpcError(-32002, 'Already processing eth_requestAccounts.');
              return accounts === 'none' ? [] : [address];
            case 'eth_chainId':
              return '0x1';
            case 'personal_sign':
              if (rejectSign) throw rpcError(4001, 'User rejected the request.');
              await new Promise((resolve) => setTimeout(resolve, signDelayMs));
              return w.__e2eSignMessage(String(params?.[0]));
            default:
              throw rpcError(4200, `Unsupported method ${method}`);
          }
        },
        on() {},
        removeListener() {},
      };
    },
    {
      address: account.address,
      rejectSign: options.rejectSign ?? false,
      signDelayMs: options.signDelayMs ?? 0,
      accounts: options.accounts ?? null,
    },
  );
}

function toast(page: Page, text: string) {
  return page.getByRole('alert').filter({ hasText: text });
}

test('register with a wallet, log out, sign in with it again; My Info shows the wallet', async ({ page, isMobile }) => {
  const account = privateKeyToAccount(generatePrivateKey());
  const wallet = account.address.toLowerCase();
  const nickname = `w${wallet.slice(2, 12)}`;
  await injectWallet(page, account, { signDelayMs: 1500 });

  await page.goto('/register');
  await page.getByRole('button', { name: 'Register with wallet' }).click();
  // SPEC §4's WaitForSig state shows on the button while the wallet asks the member to sign.
  await expect(page.getByRole('button', { name: 'Waiting for signature…' })).toBeDisabled();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: `Welcome, ${nickname}` })).toBeVisible();
  await expect(toast(page, `Welcome to Starlight, ${nickname}`)).toBeVisible();

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: `Welcome, ${nickname}` })).toBeVisible();
  await expect(toast(page, `Welcome back, ${nickname}`)).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBeNull();

  await page.goto('/userbank');
  if (isMobile) {
    await page.getByRole('tab', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Profile' }).click();
  }
  await expect(page.getByRole('heading', { name: 'My Info' })).toBeVisible();
  await expect(page.getByText(wallet, { exact: true })).toBeVisible();
});

test("the referral link's referrer goes with a wallet registration", async ({ page }) => {
  await injectWallet(page, privateKeyToAccount(generatePrivateKey()));
  await page.goto('/register/admin');
  await expect(page.getByLabel('Referrer (optional)')).toHaveValue('admin');
  await page.getByRole('button', { name: 'Register with wallet' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
  expect(stored).toMatchObject({ referrer: 'admin', isWalletOnly: true });
});

test('signing in with a wallet that has no account is refused', async ({ page }) => {
  await injectWallet(page, privateKeyToAccount(generatePrivateKey()));
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await expect(toast(page, 'Wallet Authentication: Failed')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign in with wallet' })).toBeEnabled();
});

test('without a browser wallet: No Metamask browser extension detected', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await expect(toast(page, 'No Metamask browser extension detected')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('refusing to sign: You need to sign the message to continue', async ({ page }) => {
  await injectWallet(page, privateKeyToAccount(generatePrivateKey()), { rejectSign: true });
  await page.goto('/register');
  await page.getByRole('button', { name: 'Register with wallet' }).click();
  await expect(toast(page, 'You need to sign the message to continue')).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByRole('button', { name: 'Register with wallet' })).toBeEnabled();
});

test('a wallet with no account selected: No account selected!', async ({ page }) => {
  await injectWallet(page, privateKeyToAccount(generatePrivateKey()), { accounts: 'none' });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await expect(toast(page, 'No account selected!')).toBeVisible();
});

test('a wallet that fails to connect: Metamask not ready', async ({ page }) => {
  await injectWallet(page, privateKeyToAccount(generatePrivateKey()), { accounts: 'error' });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await expect(toast(page, 'Metamask not ready')).toBeVisible();
});

test('the login page with the wallet button has no serious accessibility violations', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in with wallet' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('a wallet-only member adds a nickname and an e-mail in /userconfig, with repeat entry', async ({ page }) => {
  const account = privateKeyToAccount(generatePrivateKey());
  await injectWallet(page, account);
  await page.goto('/register');
  await page.getByRole('button', { name: 'Register with wallet' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/userconfig');
  // Wallet-only: no password to change, nickname and e-mail dialogs instead (SPEC §2 Settings).
  await expect(page.getByRole('heading', { name: 'Change password' })).toHaveCount(0);
  await expect(page.getByText(account.address.toLowerCase())).toBeVisible();

  const nickname = `nick${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Change nickname' }).click();
  const nickDialog = page.getByRole('dialog', { name: 'Change nickname' });
  await nickDialog.getByRole('textbox', { name: 'New nickname', exact: true }).fill(nickname);
  await nickDialog.getByRole('textbox', { name: 'Repeat new nickname' }).fill(`${nickname}x`);
  await expect(nickDialog.getByText('Nicknames do not match')).toBeVisible();
  await expect(nickDialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await expectNoSeriousA11yViolations(page);
  await nickDialog.getByRole('textbox', { name: 'Repeat new nickname' }).fill(nickname);
  await nickDialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Your account has been updated')).toBeVisible();
  await expect(nickDialog).toBeHidden();
  await expect(page.getByText(nickname, { exact: true })).toBeVisible();

  const email = `${nickname}@example.test`;
  await page.getByRole('button', { name: 'Add e-mail' }).click();
  const mailDialog = page.getByRole('dialog', { name: 'Change e-mail' });
  await mailDialog.getByRole('textbox', { name: 'New e-mail', exact: true }).fill(email);
  await mailDialog.getByRole('textbox', { name: 'Repeat new e-mail' }).fill(`x${email}`);
  await expect(mailDialog.getByText('Emails do not match')).toBeVisible();
  await mailDialog.getByRole('textbox', { name: 'Repeat new e-mail' }).fill(email);
  await mailDialog.getByRole('button', { name: 'Save' }).click();
  await expect(mailDialog).toBeHidden();
  await expect(page.getByText(email, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change e-mail' })).toBeVisible();
});
