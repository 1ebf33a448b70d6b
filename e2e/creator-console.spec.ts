/**
 * The creator console in a browser, desktop and phone: a creator makes a collection, makes two items (one
 * for a member), is told in words about metadata that is not a JSON object, edits an item's name,
 * description, image and metadata, edits the collection's app URLs, and finds it all after a reload; a
 * member who is not a creator is offered no console, even at its address. Screenshots of each screen.
 */
import { type APIRequestContext, expect, type Page, type TestInfo, test } from '@playwright/test';
import {
  adminSignIn,
  expectNoSeriousA11yViolations,
  newPage,
  PASSWORD,
  registerMember,
  storeSession,
  uniqueNick,
} from './fixtures.ts';

/** A new member made a creator, signed in again (the role change ended the first session). */
async function newCreator(request: APIRequestContext) {
  const nick = uniqueNick('maker');
  await registerMember(request, nick);
  const promoted = await request.post('/api/user/administrateUser', {
    headers: { authorization: `Bearer ${await adminSignIn(request)}` },
    data: { nickname: nick, role: 'creator', active: true },
  });
  expect(promoted.ok(), await promoted.text()).toBe(true);
  const login = await request.post('/api/user/login', { data: { nickOrEmail: nick, password: PASSWORD } });
  expect(login.ok()).toBe(true);
  return (await login.json()) as { user: { nickname: string }; token: string };
}

/** A screenshot into the results: the whole page, or (a dialog open) what the screen shows. */
async function shot(page: Page, info: TestInfo, name: string, fullPage = true) {
  await page.screenshot({ path: info.outputPath(`${name}.png`), fullPage });
}

test('a creator makes a collection and its items, edits them and the app URLs, and they stay', async ({
  browser,
  isMobile,
  request,
}, info) => {
  // One journey through nine screens and five dialogs, each photographed: longer than the default minute.
  test.setTimeout(180_000);
  const creator = await newCreator(request);
  const holder = uniqueNick('holder');
  await registerMember(request, holder);
  const collectionName = `Fleet ${uniqueNick('c')}`;
  const page = await newPage(browser, isMobile);
  await storeSession(page, creator);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Creator' }).click();
  await expect(page.getByRole('heading', { name: 'Collection Control' })).toBeVisible();
  await expect(page.getByText('No Data')).toBeVisible();
  await shot(page, info, '1-console-empty');

  // A collection, with the app URLs a consent request may name.
  await page.getByRole('button', { name: 'Create Collection' }).click();
  const create = page.getByRole('dialog', { name: 'Create Collection' });
  await create.getByLabel('Name').fill(collectionName);
  await create.getByLabel('Description').fill('Ships of the browser fleet');
  await create.getByLabel('App redirect URLs').fill('https://app.example.com/back');
  await create.getByLabel('App cancel URL').fill('https://app.example.com/cancel');
  await shot(page, info, '2-create-collection', false);
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText(`Collection ${collectionName} created`)).toBeVisible();
  await expect(create).toBeHidden();
  const card = page.getByRole('article', { name: collectionName });
  await expect(card).toContainText('Redirect URLs: https://app.example.com/back');
  await expect(page.getByRole('heading', { name: `Items of ${collectionName}` })).toBeVisible();
  await expect(page.getByText('No items yet — create the first')).toBeVisible();
  await shot(page, info, '3-no-items');

  // The first item, the creator's own; metadata that is not an object is refused in words.
  await page.getByRole('button', { name: 'Create the first item' }).click();
  let dialog = page.getByRole('dialog', { name: 'Create Item' });
  await expect(dialog.getByLabel('Owner')).toHaveValue(creator.user.nickname);
  await dialog.getByLabel('Name').fill('Falcon');
  await dialog.getByLabel('Description').fill('A fast scout ship');
  await dialog.getByLabel('Metadata').fill('["not", "an object"]');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText(/^Metadata must be a JSON object/)).toBeVisible();
  await shot(page, info, '4-create-item-refused', false);
  await dialog.getByLabel('Metadata').fill('{"class": "scout"}');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Item Falcon created')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The second, for another member, with an image.
  await page.getByRole('button', { name: 'Create Item' }).click();
  dialog = page.getByRole('dialog', { name: 'Create Item' });
  await dialog.getByLabel('Owner').fill(holder);
  await dialog.getByLabel('Name').fill('Viper');
  await dialog.getByLabel('Image URL').fill('https://images.example.test/viper.png');
  await expect(dialog.getByRole('img', { name: 'Preview of the image' })).toBeVisible();
  await dialog.getByLabel('Metadata').fill('{"class": "fighter", "stats": {"speed": 9}}');
  await shot(page, info, '5-create-item', false);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Item Viper created')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('creator-item')).toHaveCount(2);
  await expect(page.getByRole('article', { name: 'Viper' })).toContainText(`Owner ${holder}`);

  // Edit the first: name, description, image and metadata.
  await page.getByRole('button', { name: 'Edit Falcon' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit Item' });
  await expect(dialog.getByLabel('Name')).toHaveValue('Falcon');
  await dialog.getByLabel('Name').fill('Falcon Mk II');
  await dialog.getByLabel('Description').fill('A faster scout, refitted');
  await dialog.getByLabel('Image URL').fill('https://images.example.test/falcon2.png');
  await dialog.getByLabel('Metadata').fill('{"class": "interceptor", "stats": {"speed": 11}}');
  await shot(page, info, '6-edit-item', false);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Item Falcon Mk II updated')).toBeVisible();
  await expect(dialog).toBeHidden();
  await shot(page, info, '7-items-listed');

  // Edit the collection's app URLs.
  await page.getByRole('button', { name: `Edit ${collectionName}` }).click();
  dialog = page.getByRole('dialog', { name: 'Edit Collection' });
  await expect(dialog.getByLabel('App redirect URLs')).toHaveValue('https://app.example.com/back');
  await dialog.getByLabel('App redirect URLs').fill('https://app.example.com/v2/back\nhttps://app.example.com/v2/alt');
  await dialog.getByLabel('App cancel URL').fill('https://app.example.com/v2/cancel');
  await shot(page, info, '8-edit-collection', false);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Collection ${collectionName} updated`)).toBeVisible();
  await expect(dialog).toBeHidden();

  // Everything is still there after a reload.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Collection Control' })).toBeVisible();
  await expect(card).toContainText('Redirect URLs: https://app.example.com/v2/back, https://app.example.com/v2/alt');
  await expect(card).toContainText('Cancel URL: https://app.example.com/v2/cancel');
  const falcon = page.getByRole('article', { name: 'Falcon Mk II' });
  await expect(falcon).toContainText('A faster scout, refitted');
  await expect(falcon).toContainText('class: interceptor');
  await expect(falcon).toContainText('stats.speed: 11');
  await expect(falcon.locator('img')).toHaveAttribute('src', /falcon2\.png|favicon/);
  await expect(page.getByRole('article', { name: 'Viper' })).toContainText('stats.speed: 9');
  await expect(page.getByRole('article', { name: 'Falcon', exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Edit Falcon Mk II' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit Item' });
  await expect(dialog.getByLabel('Image URL')).toHaveValue('https://images.example.test/falcon2.png');
  await expect(dialog.getByLabel('Metadata')).toHaveValue(/"interceptor"/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await shot(page, info, '9-after-reload');
  await expectNoSeriousA11yViolations(page);
});

test('a member who is not a creator is offered no creator console', async ({ browser, isMobile, request }, info) => {
  const member = await registerMember(request, uniqueNick('plain'));
  const page = await newPage(browser, isMobile);
  await storeSession(page, member);
  await page.goto('/dashboard?view=creator');
  await expect(page.getByRole('heading', { name: `Welcome, ${member.user.nickname}` })).toBeVisible();
  await expect(page.getByTestId('member-console')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Creator' })).toHaveCount(0);
  await expect(page.getByTestId('creator-console')).toHaveCount(0);
  await shot(page, info, 'member-dashboard');
});
