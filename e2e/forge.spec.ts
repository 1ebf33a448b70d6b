/**
 * The forge in a browser, on desktop and phone: an admin creates a recipe in Forge Control;
 * a member starts it in the Forge tab, watches the countdown in Forge Logs, claims it and sees the new
 * balance; a process cancelled inside its first 10 minutes pays the input back; the admin finds both in
 * Forge Process Logs.
 */
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import {
  ADMIN,
  adminSignIn,
  expectNoSeriousA11yViolations,
  newPage,
  registerMember,
  storeSession,
  uniqueNick,
} from './fixtures.ts';

type Session = { user: unknown; token: string };

async function pageAs(browser: Browser, isMobile: boolean, session: Session): Promise<Page> {
  const page = await newPage(browser, isMobile);
  await storeSession(page, session);
  return page;
}

/** Two fresh currencies (ore, precision 2; ingots, precision 0) and 100 ore minted to `nick`. */
async function setUp(request: APIRequestContext, token: string, nick: string) {
  const auth = { authorization: `Bearer ${token}` };
  const tag = Date.now().toString(36).slice(-4).toUpperCase();
  const make = async (ticker: string, name: string, precision: number) => {
    const res = await request.post('/api/bank/createCurrency', {
      headers: auth,
      data: {
        ticker,
        name,
        precision,
        canDeposit: false,
        canWithdraw: false,
        canTransfer: true,
        canMint: true,
        canBurn: true,
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
    return (await res.json()).currency as { currencyId: number; ticker: string; name: string };
  };
  const ore = await make(`O${tag}`, `Ore ${tag}`, 2);
  const ingot = await make(`I${tag}`, `Ingot ${tag}`, 0);
  const minted = await request.post('/api/bank/mint', {
    headers: auth,
    data: { recipientNickName: nick, currencyId: ore.currencyId, amount: '100', note: 'forge test' },
  });
  expect(minted.ok()).toBe(true);
  return { ore, ingot, auth, tag };
}

/** Opens the member's Forge: the Forge tab on a desktop, Account > Forge on a phone. */
async function openForge(page: Page, isMobile: boolean): Promise<void> {
  if (isMobile) {
    await page.goto('/userbank');
    await page.getByRole('tab', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Forge', exact: true }).click();
  } else {
    await page.goto('/userbank?tab=forge');
  }
  await expect(page.getByRole('heading', { name: 'Forge', exact: true })).toBeVisible();
}

/** The member's Forge Logs: the User Logs sub-tab on a desktop, below the recipes on a phone. */
async function openForgeLogs(page: Page, isMobile: boolean): Promise<void> {
  if (isMobile) await openForge(page, true);
  else await page.goto('/userbank?tab=logs&log=forge');
  await expect(page.getByRole('heading', { name: 'Forge Logs' })).toBeVisible();
}

async function balance(page: Page, ticker: string): Promise<string> {
  await page.goto(`/userbank${page.viewportSize()?.width === 390 ? '' : '?tab=bank'}`);
  const cell = page.getByTestId(`balance-${ticker}`);
  await expect(cell).toBeVisible();
  return (await cell.textContent()) ?? '';
}

test('admin creates a recipe; a member forges, claims, and cancels within the window', async ({
  browser,
  isMobile,
  request,
}) => {
  test.setTimeout(90_000);
  const nick = uniqueNick('forge');
  const member = await registerMember(request, nick);
  const adminLogin = await request.post('/api/user/login', {
    data: { nickOrEmail: ADMIN.nickname, password: ADMIN.password },
  });
  const adminSession = (await adminLogin.json()) as Session;
  const { ore, ingot, auth, tag } = await setUp(request, await adminSignIn(request), nick);
  const quick = `Quick smelt ${tag}${isMobile ? 'p' : 'd'}`;

  // The admin creates a 5-second recipe in Forge Control.
  const admin = await pageAs(browser, isMobile, adminSession);
  await admin.goto('/dashboard?view=admin&tab=forge-control');
  await admin.getByRole('button', { name: 'Create Recipe' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Create Recipe' });
  await dialog.getByLabel('Name').fill(quick);
  await dialog.getByLabel('Description').fill('Ten ore become one ingot in seconds');
  await dialog.getByLabel('Time required (seconds)').fill('5');
  await expect(dialog.getByText('5 sec')).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Input currency' }).click();
  await admin.getByRole('option', { name: `${ore.name} (${ore.ticker})` }).click();
  await dialog.getByLabel('Input amount').fill('10');
  await dialog.getByRole('combobox', { name: 'Output currency' }).click();
  await admin.getByRole('option', { name: `${ingot.name} (${ingot.ticker})` }).click();
  await dialog.getByLabel('Output amount').fill('1');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(admin.getByText('Recipe created')).toBeVisible();
  const card = admin.getByRole('listitem', { name: quick });
  await expect(card.getByText('Active: Yes')).toBeVisible();
  await expect(card.getByText(`${ore.name} x 10.00 → ${ingot.name} x 1`)).toBeVisible();

  // A slow recipe (an hour) made through the API, to cancel inside its window.
  const slow = `Slow smelt ${tag}${isMobile ? 'p' : 'd'}`;
  const created = await request.post('/api/forge/recipes/create', {
    headers: auth,
    data: {
      name: slow,
      description: 'Ten ore become one ingot in an hour',
      timeRequired: 3600,
      input: { currencyId: ore.currencyId, amount: 10 },
      output: { currencyId: ingot.currencyId, amount: 1 },
    },
  });
  expect(created.ok()).toBe(true);

  // The member starts two runs of the quick recipe.
  const page = await pageAs(browser, isMobile, member);
  await openForge(page, isMobile);
  const recipe = page.getByRole('article', { name: quick });
  await expect(recipe.getByText('5 sec')).toBeVisible();
  await recipe.getByLabel('Quantity').fill('2');
  await expect(recipe.getByText(`Pays ${ore.name} x 20.00, gives ${ingot.name} x 2`)).toBeVisible();
  await recipe.getByRole('button', { name: 'Start Forge' }).click();
  await expect(page.getByText('Process started')).toBeVisible();

  // Forge Logs count down, then offer Claim; claiming pays the ingots.
  await openForgeLogs(page, isMobile);
  const row = page.getByTestId('forge-process-row').filter({ hasText: quick });
  await expect(row.getByText(`${ore.ticker} x 10.00 × 2`)).toBeVisible();
  await expect(row.getByText(/^00:00:0[1-5]$/)).toBeVisible();
  // The forge_ready notice arrives live at the finish; on a phone only the newest toast shows, so the claim
  // waits for it and its own "Process finished" is the newest.
  await expect(page.getByRole('alert').filter({ hasText: `${quick} is ready` })).toBeVisible({ timeout: 15_000 });
  await row.getByRole('button', { name: `Claim ${quick}` }).click({ timeout: 15_000 });
  await expect(page.getByText('Process finished')).toBeVisible();
  await expect(row.getByText('Forged')).toBeVisible();
  expect(await balance(page, ingot.ticker)).toBe(`2 ${ingot.ticker}`);
  expect(await balance(page, ore.ticker)).toBe(`80.00 ${ore.ticker}`);

  // The slow one: started, then cancelled inside the window, pays the ore back.
  await openForge(page, isMobile);
  await page.getByRole('article', { name: slow }).getByRole('button', { name: 'Start Forge' }).click();
  await expect(page.getByText('Process started')).toBeVisible();
  await openForgeLogs(page, isMobile);
  const slowRow = page.getByTestId('forge-process-row').filter({ hasText: slow });
  await expect(slowRow.getByText('...Forging')).toBeVisible();
  await slowRow.getByRole('button', { name: `Cancel ${slow}` }).click();
  await expect(page.getByText('Process cancelled')).toBeVisible();
  await expect(slowRow.getByText('Cancelled')).toBeVisible();
  expect(await balance(page, ore.ticker)).toBe(`80.00 ${ore.ticker}`);
  await openForgeLogs(page, isMobile);
  await expectNoSeriousA11yViolations(page);

  // The admin finds the member's two processes in Forge Process Logs.
  await admin.goto('/dashboard?view=admin&tab=forge-logs');
  const logs = admin.getByRole('region', { name: 'Forge Process Logs' });
  await logs.getByLabel('Nickname').fill(nick);
  await logs.getByRole('button', { name: 'Search' }).click();
  await expect(logs.getByRole('row')).toHaveCount(3);
  await expect(logs.getByRole('row').filter({ hasText: quick })).toContainText('Completed');
  await expect(logs.getByRole('row').filter({ hasText: slow })).toContainText('Cancelled');
});
