/**
 * The example creator app (examples/creator-app) against the real server: a member opens
 * the app, is sent to Starlight's consent page, signs in there, and comes back to the app, which has
 * redeemed the code and lists the member's items. Nothing is intercepted: the app runs beside the
 * server as a newcomer would run it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { expect, test } from '@playwright/test';
import { ADMIN, BASE_URL, newPage, PASSWORD, registerMember, uniqueNick } from './fixtures.ts';

/** A TCP port free right now. */
async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const address = srv.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** Starts examples/creator-app/server.mjs and waits until it listens. */
async function startExampleApp(env: Record<string, string>): Promise<ChildProcess> {
  const app = spawn(process.execPath, ['examples/creator-app/server.mjs'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the example app did not start: ${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Example creator app on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    app.stdout?.on('data', onData);
    app.stderr?.on('data', onData);
    app.on('exit', (code) => reject(new Error(`the example app exited (${code}): ${output}`)));
  });
  return app;
}

test('the example creator app completes the consent flow and shows the member their items', async ({
  browser,
  isMobile,
  request,
}) => {
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;

  // A creator with a key and a collection that registers the app's URLs.
  const adminLogin = await request.post('/api/user/login', {
    data: { nickOrEmail: ADMIN.nickname, password: ADMIN.password },
  });
  const adminAuth = { authorization: `Bearer ${(await adminLogin.json()).token}` };
  const creatorNick = uniqueNick('appmaker');
  await registerMember(request, creatorNick);
  const promoted = await request.post('/api/user/administrateUser', {
    headers: adminAuth,
    data: { nickname: creatorNick, role: 'creator', active: true },
  });
  expect(promoted.ok(), await promoted.text()).toBe(true);
  const creatorLogin = await request.post('/api/user/login', {
    data: { nickOrEmail: creatorNick, password: PASSWORD },
  });
  const auth = { authorization: `Bearer ${(await creatorLogin.json()).token}` };
  const key = (await (await request.get('/api/user/newApiKey', { headers: auth })).json()).apiKey as string;
  const made = await request.post('/api/inventory/createCollection', {
    headers: auth,
    data: {
      name: `Orion ${uniqueNick('f')}`,
      description: 'Ships of the example app',
      redirectUrls: [`${appUrl}/callback`],
      cancelUrl: `${appUrl}/cancelled`,
    },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const collection = (await made.json()).collection as { _id: string; name: string };

  const memberNick = uniqueNick('pilot');
  await registerMember(request, memberNick);
  const item = await request.post('/api/inventory/createItem', {
    headers: auth,
    data: { itemCollection: collection._id, owner: memberNick, name: 'Orion Corvette' },
  });
  expect(item.ok(), await item.text()).toBe(true);

  const app = await startExampleApp({
    STARLIGHT_URL: BASE_URL,
    APP_URL: appUrl,
    STARLIGHT_API_KEY: key,
    COLLECTION_ID: collection._id,
  });
  try {
    const page = await newPage(browser, isMobile);
    await page.goto(appUrl);
    await page.getByRole('link', { name: 'Sign in with Starlight' }).click();
    await expect(page).toHaveURL(/\/loginCApp\/[0-9a-f]{24}$/);
    await expect(page.getByText(collection.name).first()).toBeVisible();
    await page.getByLabel('Nickname or e-mail').fill(memberNick);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in and allow' }).click();

    await expect(page).toHaveURL(new RegExp(`^${appUrl}/callback\\?code=`));
    await expect(page.getByRole('heading', { name: `Welcome, ${memberNick}` })).toBeVisible();
    await expect(page.locator('#items')).toHaveText('Orion Corvette');
    // The code worked once: reloading the page redeems it again, which the server refuses.
    await page.reload();
    await expect(page.getByText('Code already used')).toBeVisible();
  } finally {
    app.kill();
  }
});
