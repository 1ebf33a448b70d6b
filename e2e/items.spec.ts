/**
 * Items in a browser: a creator makes a collection in the creator console (desktop; by
 * the API on a phone, where the console is not offered), adds ships for a member through the API; the
 * member finds them grouped by name in Game Items (My Assets on a phone) and opens their details, and
 * never sees the hidden data.
 */
import { expect, test } from '@playwright/test';
import {
  adminSignIn,
  expectNoSeriousA11yViolations,
  newPage,
  registerMember,
  storeSession,
  uniqueNick,
} from './fixtures.ts';

test('a creator makes a collection; a member sees its items grouped, with details', async ({
  browser,
  isMobile,
  request,
}) => {
  const adminAuth = { authorization: `Bearer ${await adminSignIn(request)}` };
  const creatorNick = uniqueNick('maker');
  const creator = await registerMember(request, creatorNick);
  const promoted = await request.post('/api/user/administrateUser', {
    headers: adminAuth,
    data: { nickname: creatorNick, role: 'creator', active: true },
  });
  expect(promoted.ok(), await promoted.text()).toBe(true);
  // The role change ended the old session: sign in again.
  const login = await request.post('/api/user/login', {
    data: { nickOrEmail: creatorNick, password: 'Str0ng!Passw0rd' },
  });
  const creatorSession = await login.json();
  const auth = { authorization: `Bearer ${creatorSession.token}` };
  const collectionName = `Fleet ${uniqueNick('c')}`;

  let collectionId: string;
  if (isMobile) {
    const made = await request.post('/api/inventory/createCollection', {
      headers: auth,
      data: { name: collectionName },
    });
    collectionId = (await made.json()).collection._id;
  } else {
    const page = await newPage(browser, false);
    await storeSession(page, creatorSession);
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Creator' }).click();
    await expect(page.getByRole('heading', { name: 'Collection Control' })).toBeVisible();
    await page.getByRole('button', { name: 'Create Collection' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Collection' });
    await dialog.getByLabel('Name').fill(collectionName);
    await dialog.getByLabel('App redirect URLs').fill('https://app.example.com/back');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByText(`Collection ${collectionName} created`)).toBeVisible();
    const card = page.getByRole('article', { name: collectionName });
    await expect(card).toContainText('https://app.example.com/back');
    collectionId = (await card.getByRole('code').textContent()) ?? '';
    await expectNoSeriousA11yViolations(page);
  }
  expect(creator.user.nickname).toBe(creatorNick);

  const nick = uniqueNick('pilot');
  const member = await registerMember(request, nick);
  for (const name of ['Falcon', 'Falcon', 'Viper']) {
    const res = await request.post('/api/inventory/createItem', {
      headers: auth,
      data: {
        itemCollection: collectionId,
        owner: nick,
        name,
        description: `${name}, a ship of the fleet`,
        metadata: { class: name === 'Falcon' ? 'scout' : 'fighter', stats: { speed: 7 } },
        variabledata: { fuel: 80 },
        hiddendata: { seed: 'do-not-show-me' },
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }

  const page = await newPage(browser, isMobile);
  await storeSession(page, member);
  if (isMobile) {
    await page.goto('/userbank');
  } else {
    await page.goto('/userbank?tab=bank');
    await page.getByRole('tab', { name: 'Game Items' }).click();
  }
  await page.getByRole('combobox', { name: 'Collection' }).click();
  await page.getByRole('option', { name: collectionName }).click();
  const falcon = page.getByTestId('item-card').filter({ hasText: 'Falcon' });
  await expect(falcon).toContainText('×2');
  await expect(falcon).toContainText('class: scout');
  await expect(page.getByTestId('item-card').filter({ hasText: 'Viper' })).toContainText('×1');
  await falcon.getByRole('button', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: 'Falcon' });
  await expect(details.getByText('Falcon, a ship of the fleet')).toBeVisible();
  await expect(details.getByRole('row', { name: /stats\.speed/ })).toContainText('7');
  await expect(page.getByText('do-not-show-me')).toHaveCount(0);
});
