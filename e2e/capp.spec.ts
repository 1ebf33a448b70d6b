/**
 * The creator-app consent page (SPEC §2 /loginCApp/{authId}; DESIGN §7): a creator's app
 * asks for a member's items, the member signs in on Starlight's page (password or wallet) and the
 * browser goes back to the app with a single-use code, which the app redeems with its API key. The app's
 * host is intercepted (`page.route`); everything else is the real server.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import {
  adminSignIn,
  BASE_URL,
  expectNoSeriousA11yViolations,
  newPage,
  PASSWORD,
  registerMember,
  uniqueNick,
} from './fixtures.ts';

const APP = 'https://app.example.test';
const REDIRECT_URL = `${APP}/callback`;
const CANCEL_URL = `${APP}/cancelled`;
const CUSTOM_MESSAGE = 'Bring your fleet to Orion';
/** The consent page's message for an app URL it will not open (apps/web/src/lib/app-url.ts). */
const UNSAFE_APP_URL = "This app's address is not a safe https address, so it was not opened";

interface CreatorApp {
  apiKey: string;
  collectionId: string;
  collectionName: string;
  /** The creator's bearer header (to add items). */
  auth: { authorization: string };
}

/** A creator (registered, promoted by the admin, signed in again) with an API key and a collection of the app's URLs. */
async function makeCreatorApp(request: APIRequestContext): Promise<CreatorApp> {
  const adminAuth = { authorization: `Bearer ${await adminSignIn(request)}` };
  const nick = uniqueNick('capp');
  await registerMember(request, nick);
  const promoted = await request.post('/api/user/administrateUser', {
    headers: adminAuth,
    data: { nickname: nick, role: 'creator', active: true },
  });
  expect(promoted.ok(), await promoted.text()).toBe(true);
  // The role change ended the old session: sign in again.
  const login = await request.post('/api/user/login', { data: { nickOrEmail: nick, password: PASSWORD } });
  expect(login.ok(), await login.text()).toBe(true);
  const auth = { authorization: `Bearer ${(await login.json()).token}` };
  const key = await request.get('/api/user/newApiKey', { headers: auth });
  expect(key.ok(), await key.text()).toBe(true);
  const { apiKey } = (await key.json()) as { apiKey: string };
  const collectionName = `Orion ${uniqueNick('f')}`;
  const made = await request.post('/api/inventory/createCollection', {
    headers: auth,
    data: {
      name: collectionName,
      description: 'Ships for the Orion run',
      redirectUrls: [REDIRECT_URL],
      cancelUrl: CANCEL_URL,
    },
  });
  expect(made.ok(), await made.text()).toBe(true);
  return { apiKey, collectionId: (await made.json()).collection._id, collectionName, auth };
}

/** Gives `owner` a ship of the app's collection. */
async function addItem(request: APIRequestContext, app: CreatorApp, owner: string, name: string): Promise<void> {
  const res = await request.post('/api/inventory/createItem', {
    headers: app.auth,
    data: { itemCollection: app.collectionId, owner, name, description: `${name}, bound for Orion` },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** The app's consent request (by its API key): the request id the consent page opens. */
async function createAuthRequest(request: APIRequestContext, app: CreatorApp): Promise<string> {
  const res = await request.post('/api/capp/createAuthRequest', {
    headers: { 'x-api-key': app.apiKey },
    data: {
      itemCollectionId: app.collectionId,
      redirectUrl: REDIRECT_URL,
      cancelUrl: CANCEL_URL,
      customMessage: CUSTOM_MESSAGE,
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const body = (await res.json()) as { requestId: string; url: string };
  expect(body.url).toContain(`/loginCApp/${body.requestId}`);
  return body.requestId;
}

/** Answers the app's host with a small page, so the browser can land there. */
async function fakeApp(page: Page): Promise<void> {
  await page.route(`${APP}/**`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><html lang="en"><head><title>Orion app</title></head><body><h1>Orion app</h1></body></html>',
    }),
  );
}

/** The app redeems `code` (API key): the member it names; then reads that member's items in its collection. */
async function redeem(request: APIRequestContext, app: CreatorApp, code: string) {
  const redeemed = await request.post('/api/capp/redeemCode', { headers: { 'x-api-key': app.apiKey }, data: { code } });
  expect(redeemed.ok(), await redeemed.text()).toBe(true);
  const { userId, nickname } = (await redeemed.json()) as { userId: string; nickname: string };
  const items = await request.post('/api/capp/getUserItems', {
    headers: { 'x-api-key': app.apiKey },
    data: { userId, itemCollectionId: app.collectionId },
  });
  expect(items.ok(), await items.text()).toBe(true);
  const { data } = (await items.json()) as { data: Array<{ name: string }> };
  return { nickname, itemNames: data.map((i) => i.name) };
}

function toast(page: Page, text: string) {
  return page.getByRole('alert').filter({ hasText: text });
}

test('a member signs in on the consent page; the app gets a code and reads their items', async ({
  browser,
  isMobile,
  request,
}) => {
  const app = await makeCreatorApp(request);
  const memberNick = uniqueNick('orion');
  await registerMember(request, memberNick);
  await addItem(request, app, memberNick, 'Nebula Runner');
  const requestId = await createAuthRequest(request, app);

  const page = await newPage(browser, isMobile);
  await fakeApp(page);
  await page.goto(`/loginCApp/${requestId}`);
  await expect(page.getByRole('heading', { name: `Sign in to ${app.collectionName}` })).toBeVisible();
  await expect(page.getByText(CUSTOM_MESSAGE)).toBeVisible();
  await expect(page.getByText(APP, { exact: true })).toBeVisible();
  await expect(page.getByText(/asks to see the items you hold/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in with wallet' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // A wrong password is toasted and the page stays.
  await page.getByLabel('Nickname or e-mail').fill(memberNick);
  await page.getByRole('textbox', { name: 'Password' }).fill('Wr0ng!Passw0rd');
  await page.getByRole('textbox', { name: 'Password' }).press('Enter');
  await expect(toast(page, 'Incorrect password')).toBeVisible();
  await expect(page).toHaveURL(`${BASE_URL}/loginCApp/${requestId}`);

  // The right one (Enter submits) sends the browser to the app with a code, and stores no session.
  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await page.getByRole('textbox', { name: 'Password' }).press('Enter');
  await page.waitForURL((url) => url.href.startsWith(`${REDIRECT_URL}?code=`));
  await expect(page.getByRole('heading', { name: 'Orion app' })).toBeVisible();
  const code = new URL(page.url()).searchParams.get('code') ?? '';
  expect(code).not.toBe('');
  const storage = await page.context().storageState();
  const ours = storage.origins.find((o) => o.origin === BASE_URL)?.localStorage ?? [];
  expect(ours.map((e) => e.name)).not.toContain('token');

  const { nickname, itemNames } = await redeem(request, app, code);
  expect(nickname).toBe(memberNick);
  expect(itemNames).toEqual(['Nebula Runner']);

  // The request is single use: opening it again says so, and no form.
  await page.goto(`${BASE_URL}/loginCApp/${requestId}`);
  await expect(page.getByText('This sign-in link has already been used.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Password' })).toHaveCount(0);
  await page.context().close();
});

test('Cancel sends the browser to the app’s cancel URL', async ({ browser, isMobile, request }) => {
  const app = await makeCreatorApp(request);
  const requestId = await createAuthRequest(request, app);
  const page = await newPage(browser, isMobile);
  await fakeApp(page);
  await page.goto(`/loginCApp/${requestId}`);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.waitForURL(CANCEL_URL);
  await page.context().close();
});

test('the page opens no app URL but https: (or http: on loopback), whatever the answer says', async ({
  browser,
  isMobile,
  request,
}) => {
  const app = await makeCreatorApp(request);
  const memberNick = uniqueNick('guard');
  await registerMember(request, memberNick);
  const requestId = await createAuthRequest(request, app);
  const page = await newPage(browser, isMobile);
  await fakeApp(page);
  // Answers tampered with on the way (or stored before the server's rule): the page must not follow them.
  await page.route('**/api/capp/getAuthRequest', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    body.data.cancelUrl = 'javascript:document.title="pwned"';
    await route.fulfill({ response: res, json: body });
  });
  await page.route('**/api/user/login', (route) =>
    route.fulfill({ json: { url: 'data:text/html,<h1>Orion app</h1>', message: 'Authorized: returning to the app' } }),
  );
  await page.goto(`/loginCApp/${requestId}`);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(toast(page, UNSAFE_APP_URL)).toBeVisible();
  await expect(page).toHaveURL(`${BASE_URL}/loginCApp/${requestId}`);
  await expect(page).not.toHaveTitle('pwned');

  await page.getByLabel('Nickname or e-mail').fill(memberNick);
  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await page.getByRole('textbox', { name: 'Password' }).press('Enter');
  await expect(toast(page, UNSAFE_APP_URL).last()).toBeVisible();
  await expect(page).toHaveURL(`${BASE_URL}/loginCApp/${requestId}`);
  await page.context().close();
});

test('an unknown request shows only what happened, no form', async ({ browser, isMobile }) => {
  const page = await newPage(browser, isMobile);
  await page.goto('/loginCApp/0123456789abcdef01234567');
  await expect(page.getByText('This sign-in link is invalid.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Password' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Sign in and allow' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await page.context().close();
});

/** A fake browser wallet for `account` (accounts, chain 1, `personal_sign` signed in Node), as wallet.spec.ts. */
async function injectWallet(page: Page, account: PrivateKeyAccount): Promise<void> {
  await page.exposeFunction('__e2eSignMessage', (dataHex: `0x${string}`) =>
    account.signMessage({ message: { raw: dataHex } }),
  );
  await page.addInitScript((address) => {
    const w = window as unknown as { ethereum: unknown; __e2eSignMessage(dataHex: string): Promise<string> };
    w.ethereum = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address];
        if (method === 'eth_chainId') return '0x1';
        if (method === 'personal_sign') return w.__e2eSignMessage(String(params?.[0]));
        throw Object.assign(new Error(`Unsupported method ${method}`), { code: 4200 });
      },
      on() {},
      removeListener() {},
    };
  }, account.address);
}

test('a wallet member signs in for the app with their wallet', async ({ browser, isMobile, request }) => {
  const app = await makeCreatorApp(request);
  // A wallet-only member, registered through the API with a real signature.
  const account = privateKeyToAccount(generatePrivateKey());
  const nonced = await request.post('/api/user/getNoncedMessage', { data: { walletAddress: account.address } });
  expect(nonced.ok(), await nonced.text()).toBe(true);
  const { messageToSign } = (await nonced.json()) as { messageToSign: string };
  const registered = await request.post('/api/user/registerWallet', {
    data: { walletAddress: account.address, signature: await account.signMessage({ message: messageToSign }) },
  });
  expect(registered.ok(), await registered.text()).toBe(true);
  const walletNick = ((await registered.json()) as { user: { nickname: string } }).user.nickname;
  await addItem(request, app, walletNick, 'Star Skiff');
  const requestId = await createAuthRequest(request, app);

  const page = await newPage(browser, isMobile);
  await injectWallet(page, account);
  await fakeApp(page);
  await page.goto(`/loginCApp/${requestId}`);
  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${REDIRECT_URL}?code=`));
  const code = new URL(page.url()).searchParams.get('code') ?? '';
  const { nickname, itemNames } = await redeem(request, app, code);
  expect(nickname).toBe(walletNick);
  expect(itemNames).toEqual(['Star Skiff']);
  await page.context().close();
});
