/** Shared constants and helpers of the browser tests. */
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const ADMIN = { nickname: 'admin', password: 'Admin-Passw0rd!' };
export const PASSWORD = 'Str0ng!Passw0rd';

/** A unique alphanumeric nickname (SPEC §5). */
export function uniqueNick(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`.slice(0, 20);
}

/**
 * Marks the disclaimer as accepted and the verify-e-mail popup as shown, so neither covers the page
 * (their own tests check them).
 */
export async function acceptDisclaimerUpFront(page: Page): Promise<void> {
  await page.addInitScript(() => {
    localStorage.setItem('disclaimer', JSON.stringify({ version: 'v0.0.1', nextShow: Date.now() + 86_400_000 }));
    localStorage.setItem('verifyEmailReminder', String(Date.now() + 86_400_000));
  });
}

/** Fails on serious or critical accessibility violations (axe). */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

/** A member registered through the API: `{user, token}`. */
export async function registerMember(
  request: APIRequestContext,
  nick: string,
): Promise<{ user: { nickname: string }; token: string }> {
  const res = await request.post('/api/user/register', {
    data: { nickname: nick, email: `${nick}@example.test`, password: PASSWORD },
  });
  expect(res.ok()).toBe(true);
  return res.json();
}

/** The admin's token (POST /api/user/login). */
export async function adminSignIn(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/user/login', {
    data: { nickOrEmail: ADMIN.nickname, password: ADMIN.password },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

/** Signs `page` in as `session` the way the login page stores it (SPEC §4 keys). */
export async function storeSession(page: Page, session: { user: unknown; token: string }): Promise<void> {
  await page.addInitScript(
    ([u, t]) => {
      localStorage.setItem('user', JSON.stringify(u));
      localStorage.setItem('token', JSON.stringify(t));
      localStorage.setItem('tokenexpires', JSON.stringify(Date.now() + 86_400_000));
    },
    [session.user, session.token] as const,
  );
}

/**
 * Signs `page` in through the login form as `nickname` with `password` (the seeded admin by default) and
 * waits for the dashboard it lands on.
 */
export async function signIn(page: Page, nickname = ADMIN.nickname, password = ADMIN.password): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Nickname or e-mail').fill(nickname);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** A page in a fresh context at desktop (1280x800) or phone (390x844, touch) size, disclaimer accepted. */
export async function newPage(browser: Browser, isMobile: boolean): Promise<Page> {
  const context = await browser.newContext(
    isMobile
      ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
      : { viewport: { width: 1280, height: 800 } },
  );
  const page = await context.newPage();
  await acceptDisclaimerUpFront(page);
  return page;
}

/**
 * POSTs `data` to `url` as the bearer of `token`, with a fresh Idempotency-Key; fails the test unless the
 * answer is 2xx, and answers its JSON body.
 */
export async function apiPost<T = unknown>(
  request: APIRequestContext,
  token: string,
  url: string,
  data: unknown,
): Promise<T> {
  const res = await request.post(url, {
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
    data,
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as T;
}

/**
 * A currency of its own, made by the admin (`adminToken`): transferable, mintable and burnable, no deposit
 * or withdrawal, ticker `prefix` and five unique characters. Answers `{currencyId, ticker}`.
 */
export async function createCurrency(
  request: APIRequestContext,
  adminToken: string,
  { prefix, name, precision = 2 }: { prefix: string; name?: string; precision?: number },
): Promise<{ currencyId: number; ticker: string }> {
  const ticker = `${prefix}${uniqueNick('').slice(-5).toUpperCase()}`;
  const { currency } = await apiPost<{ currency: { currencyId: number } }>(
    request,
    adminToken,
    '/api/bank/createCurrency',
    {
      ticker,
      name: name ?? `Coin ${ticker}`,
      precision,
      canDeposit: false,
      canWithdraw: false,
      canTransfer: true,
      canMint: true,
      canBurn: true,
    },
  );
  return { currencyId: currency.currencyId, ticker };
}
