/** Shared constants and helpers of the browser tests. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
/**
 * Where the browser reaches the server: a host name, not an IP address, because browsers refuse WebAuthn
 * (passkeys) on an IP-address origin; `localhost` is a secure context over http, and resolves to 127.0.0.1.
 */
export const BASE_URL = `http://localhost:${E2E_PORT}`;
export const ADMIN = { nickname: 'admin', password: 'Admin-Passw0rd!' };
export const PASSWORD = 'Str0ng!Passw0rd';

/** Where the e2e server writes its mails (no SMTP_URL: one `.eml` file each). */
export const OUTBOX = path.resolve(import.meta.dirname, '../.cache/e2e-data/outbox');

/**
 * The newest link to `PUBLIC_URL/{page}/{token}` mailed to `email`, as a path (`/{page}/{token}`), read
 * from the server's outbox; waits up to 10 s for the mail.
 */
export async function mailedLink(email: string, page: string): Promise<string> {
  const pattern = new RegExp(`https?://[^/\\s]+(/${page}/[A-Za-z0-9_-]{20,255})`);
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

/**
 * Resolves once one of `page`'s sockets has signed in (the server's `auth` answer), whichever socket it is
 * (a visitor's socket reconnects with the session): the member's pushes reach the page from then on. Call
 * before the action that opens the socket.
 */
export function socketSignedIn(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        if (String(payload).includes('"type":"auth"')) resolve();
      }),
    );
  });
}
