/**
 * Game Items, desktop and phone: the selector lists only the collections the member holds items of, with
 * how many, and chooses the one there is; item names wrap between words, never inside one.
 */
import { expect, type Locator, test } from '@playwright/test';
import { adminSignIn, apiPost, newPage, registerMember, storeSession, uniqueNick } from './fixtures.ts';

/** The words of `el`'s text that the browser split over two lines. */
function splitWords(el: Locator): Promise<string[]> {
  return el.evaluate((node) => {
    const text = node.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) return ['(no text node)'];
    const split: string[] = [];
    const value = text.textContent ?? '';
    for (const m of value.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) split.push(m[0]);
    }
    return split;
  });
}

test('Game Items lists the collections held, with counts, chose the only one, and wraps names between words', async ({
  browser,
  isMobile,
  request,
}, info) => {
  const adminToken = await adminSignIn(request);
  const stamp = uniqueNick('').slice(-6);
  const made = async (name: string) =>
    (
      await apiPost<{ collection: { _id: string } }>(request, adminToken, '/api/inventory/createCollection', {
        name,
        description: 'Ships of a browser test fleet',
      })
    ).collection._id;
  const held = await made(`Armada ${stamp}`);
  const other = `Unheld ${stamp}`;
  await made(other);

  const nick = uniqueNick('fleet');
  const member = await registerMember(request, nick);
  for (const name of ['Alpha Dreadnought', 'Alpha Interstellardreadnought', 'Alpha Dreadnought']) {
    await apiPost(request, adminToken, '/api/inventory/createItem', {
      itemCollection: held,
      owner: nick,
      name,
      description: 'A heavy ship of the armada',
      metadata: { rarity: 'Uncommon' },
      variabledata: {},
      hiddendata: {},
    });
  }

  const page = await newPage(browser, isMobile);
  await storeSession(page, member);
  if (isMobile) {
    await page.goto('/userbank');
  } else {
    await page.goto('/userbank?tab=bank');
    await page.getByRole('tab', { name: 'Game Items' }).click();
  }
  // The one collection held is chosen already, with its count.
  const select = page.getByRole('combobox', { name: 'Collection' });
  await expect(select).toHaveValue(`Armada ${stamp} (3 items)`);
  const cards = page.getByTestId('item-card');
  await expect(cards).toHaveCount(2);
  await select.click();
  await expect(page.getByRole('option')).toHaveCount(1);
  await expect(page.getByRole('option', { name: other })).toHaveCount(0);
  await page.keyboard.press('Escape');

  for (const name of ['Alpha Dreadnought', 'Alpha Interstellardreadnought']) {
    const title = cards.filter({ hasText: name }).getByText(name, { exact: true });
    await expect(title).toBeVisible();
    expect(await splitWords(title), name).toEqual([]);
  }
  await expect(cards.filter({ hasText: 'Alpha Dreadnought' }).first()).toContainText('×2');
  await page.screenshot({ path: info.outputPath('game-items.png'), fullPage: true });
});
