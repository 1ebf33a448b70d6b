/**
 * Passkeys in a browser (DESIGN §11.1), with Chromium's virtual authenticator (over CDP) standing in for
 * the device: a member adds a passkey in Settings, signs out, signs in with it (no nickname), sees it used,
 * and removes it; and signs in with it for a creator app's consent request (DESIGN §7). Desktop and phone;
 * screenshots in the results.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  adminSignIn,
  expectNoSeriousA11yViolations,
  newPage,
  PASSWORD,
  registerMember,
  signIn,
  uniqueNick,
} from './fixtures.ts';

const APP = 'https://app.example.test';

/** Gives `page` a platform authenticator that holds discoverable credentials and verifies its user. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

test('adds a passkey in Settings, signs in with it, and removes it', async ({ browser, isMobile, request }, info) => {
  // A long flow (three pages, an accessibility scan) on a shared machine.
  test.setTimeout(180_000);
  const nick = uniqueNick('pk');
  await registerMember(request, nick);
  const page = await newPage(browser, isMobile);
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  await signIn(page, nick, PASSWORD);

  await page.goto('/userconfig');
  const card = page.getByRole('region', { name: 'Passkeys' });
  await expect(card.getByText('You have no passkeys yet.')).toBeVisible();
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByLabel('Name').fill('Test key');
  await dialog.screenshot({ path: info.outputPath('passkey-name.png') });
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Passkey "Test key" added' })).toBeVisible();
  const rows = card.getByRole('list', { name: 'Passkeys' }).getByRole('listitem');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Test key');
  await expect(rows.first()).toContainText('never used');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.isResidentCredential).toBe(true);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('settings-passkey.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page);

  // Signed out, the member signs in with the passkey alone.
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const passkeyButton = page.getByRole('button', { name: 'Sign in with a passkey' });
  await expect(passkeyButton).toBeVisible();
  await page.screenshot({ path: info.outputPath('login.png'), fullPage: true });
  await passkeyButton.click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('alert').filter({ hasText: `Welcome back, ${nick}` })).toBeVisible();

  // The session passed a second factor, and the passkey shows its use.
  await page.goto('/userconfig');
  await expect(rows.first()).toContainText('last used');
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('token') ?? 'null') as string);
  const sessions = await request.get('/api/user/sessions', { headers: { authorization: `Bearer ${token}` } });
  const current = (
    (await sessions.json()) as { sessions: { current: boolean; secondFactor: boolean }[] }
  ).sessions.find((s) => s.current);
  expect(current?.secondFactor).toBe(true);

  // Removal asks first; Keep it keeps it.
  await rows.first().getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove passkey' });
  await expect(confirm).toContainText('Remove “Test key”?');
  await confirm.screenshot({ path: info.outputPath('remove-confirm.png') });
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole('button', { name: 'Remove' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Passkey removed' })).toBeVisible();
  await expect(card.getByText('You have no passkeys yet.')).toBeVisible();
  await page.screenshot({ path: info.outputPath('settings-removed.png'), fullPage: true });
  await page.context().close();
});

/** A creator's app (promoted by the admin) with an API key and a collection; answers the key and collection id. */
async function makeCreatorApp(request: APIRequestContext): Promise<{ apiKey: string; collectionId: string }> {
  const adminAuth = { authorization: `Bearer ${await adminSignIn(request)}` };
  const nick = uniqueNick('pkapp');
  await registerMember(request, nick);
  const promoted = await request.post('/api/user/administrateUser', {
    headers: adminAuth,
    data: { nickname: nick, role: 'creator', active: true },
  });
  expect(promoted.ok(), await promoted.text()).toBe(true);
  const login = await request.post('/api/user/login', { data: { nickOrEmail: nick, password: PASSWORD } });
  const auth = { authorization: `Bearer ${(await login.json()).token}` };
  const { apiKey } = (await (await request.get('/api/user/newApiKey', { headers: auth })).json()) as { apiKey: string };
  const made = await request.post('/api/inventory/createCollection', {
    headers: auth,
    data: {
      name: `Vega ${uniqueNick('f')}`,
      description: 'Ships for the Vega run',
      redirectUrls: [`${APP}/callback`],
      cancelUrl: `${APP}/x`,
    },
  });
  expect(made.ok(), await made.text()).toBe(true);
  return { apiKey, collectionId: (await made.json()).collection._id };
}

test('signs in with a passkey on a creator app’s consent page', async ({ browser, isMobile, request }, info) => {
  test.setTimeout(180_000);
  const app = await makeCreatorApp(request);
  const nick = uniqueNick('pkc');
  await registerMember(request, nick);
  const page = await newPage(browser, isMobile);
  await addVirtualAuthenticator(page);
  await signIn(page, nick, PASSWORD);
  await page.goto('/userconfig');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByRole('dialog', { name: 'Add a passkey' }).getByRole('button', { name: 'Continue' }).click();
  // A phone shows only the newest toast: the live security notice of the same addition may replace the success.
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: /Passkey "Passkey 1" added|A passkey was added/ })
      .first(),
  ).toBeVisible();

  const asked = await request.post('/api/capp/createAuthRequest', {
    headers: { 'x-api-key': app.apiKey },
    data: { itemCollectionId: app.collectionId, redirectUrl: `${APP}/callback`, cancelUrl: `${APP}/x` },
  });
  expect(asked.ok(), await asked.text()).toBe(true);
  const { requestId } = (await asked.json()) as { requestId: string };
  await page.route(`${APP}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>App</title><h1>App</h1>' }),
  );
  await page.goto(`/loginCApp/${requestId}`);
  const button = page.getByRole('button', { name: 'Sign in with a passkey' });
  await expect(button).toBeVisible();
  await page.screenshot({ path: info.outputPath('consent.png'), fullPage: true });
  await button.click();
  await page.waitForURL((url) => url.href.startsWith(`${APP}/callback?code=`));
  const code = new URL(page.url()).searchParams.get('code') ?? '';
  const redeemed = await request.post('/api/capp/redeemCode', { headers: { 'x-api-key': app.apiKey }, data: { code } });
  expect(redeemed.ok(), await redeemed.text()).toBe(true);
  expect(((await redeemed.json()) as { nickname: string }).nickname).toBe(nick);
  await page.context().close();
});
