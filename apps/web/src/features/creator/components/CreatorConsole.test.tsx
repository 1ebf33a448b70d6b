/**
 * The Creator console (SPEC §2, DESIGN §7) against a mocked API: the creator's collections with their app
 * URLs, SPEC's 'No Data', and Create Collection: the field rules in words before anything is sent, then
 * the request with empty fields dropped and redirect URLs one per line, the answer toasted and the list
 * refreshed; Edit Collection sends every field; the chosen collection's items, their empty state, and
 * Create/Edit Item with the metadata checked as a JSON object.
 */
import {
  type CollectionsResponse,
  collectionResponse,
  collectionsResponse,
  type Item,
  itemResponse,
  itemsResponse,
  type OwnCollection,
} from '@starlight/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { answers } from '../../../test/answer.ts';
import { CREATED, testId, testUser } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { CreatorConsole } from './CreatorConsole.tsx';

const fleet: OwnCollection = {
  _id: testId(0x71),
  name: 'Orion Fleet',
  description: 'Ships of the Orion game',
  imgUrl: '',
  creator: { nickname: 'alice' },
  createdAt: CREATED,
  redirectUrls: ['https://fleet.example.test/callback'],
  cancelUrl: '',
  royalty: '0.000000000',
};

/** Serves `mine` as the creator's collections; a created one joins them. Creation bodies are returned. */
function mockCollections(mine: OwnCollection[]) {
  const sent: unknown[] = [];
  const list = (): CollectionsResponse => ({ data: mine, mine, message: 'OK' });
  server.use(
    answers.post('/inventory/getCollections', collectionsResponse, list),
    answers.post('/inventory/createCollection', collectionResponse, async ({ request }) => {
      const body = (await request.json()) as { name: string };
      sent.push(body);
      const made = { ...fleet, _id: testId(0x72), name: body.name, redirectUrls: [] };
      mine.push(made);
      return { collection: made, message: 'Collection created' };
    }),
    answers.post('/inventory/modifyCollection', collectionResponse, async ({ request }) => {
      const body = (await request.json()) as { collectionId: string } & Partial<OwnCollection>;
      sent.push(body);
      const { collectionId: _, ...fields } = body;
      const index = mine.findIndex((c) => c._id === body.collectionId);
      const changed = { ...(mine[index] as OwnCollection), ...fields };
      mine[index] = changed;
      return { collection: changed, message: `Collection ${changed.name} updated` };
    }),
  );
  return sent;
}

const falcon: Item = {
  _id: testId(0x81),
  itemCollection: fleet._id,
  owner: { nickname: 'bob' },
  name: 'Falcon',
  description: 'A fast scout ship',
  imgUrl: '',
  metadata: { class: 'scout' },
  variabledata: {},
  hiddendata: {},
  createdAt: CREATED,
};

/** Serves `items` as every collection's items; created and modified items change them. Bodies are returned. */
function mockItems(items: Item[]) {
  const sent: unknown[] = [];
  server.use(
    answers.post('/inventory/getItems', itemsResponse, () => ({
      data: items,
      total: items.length,
      totalCapped: false,
      message: 'OK',
    })),
    answers.post('/inventory/createItem', itemResponse, async ({ request }) => {
      const body = (await request.json()) as Item & { owner: string };
      sent.push(body);
      const made = { ...falcon, ...body, _id: testId(0x82), owner: { nickname: body.owner } };
      items.unshift(made);
      return { item: made, message: 'Item created' };
    }),
    answers.post('/inventory/modifyItem', itemResponse, async ({ request }) => {
      const body = (await request.json()) as { itemId: string } & Partial<Item>;
      sent.push(body);
      const { itemId: _, ...fields } = body;
      const index = items.findIndex((i) => i._id === body.itemId);
      const changed = { ...(items[index] as Item), ...fields };
      items[index] = changed;
      return { item: changed, message: `Item ${changed.name} updated` };
    }),
  );
  return sent;
}

async function openDialog() {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Create Collection' }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'Create Collection' }) };
}

async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

describe('Creator Console', () => {
  it("lists the creator's collections with their app URLs", async () => {
    mockCollections([fleet]);
    mockItems([]);
    renderWithProviders(<CreatorConsole />);
    const card = await screen.findByRole('article', { name: 'Orion Fleet' });
    expect(card).toHaveTextContent(fleet._id);
    expect(card).toHaveTextContent('Redirect URLs: https://fleet.example.test/callback');
    expect(card).toHaveTextContent('Cancel URL: none');
  });

  it("says 'No Data' when the creator has none", async () => {
    mockCollections([]);
    renderWithProviders(<CreatorConsole />);
    expect(await screen.findByText('No Data')).toBeInTheDocument();
  });

  it("shows SPEC §5's messages at the fields and sends nothing", async () => {
    const sent = mockCollections([]);
    renderWithProviders(<CreatorConsole />);
    const { user, dialog } = await openDialog();
    await fill(user, within(dialog).getByRole('textbox', { name: 'Image URL' }), 'not a url');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Image URL must be a full https:// address, like https://example.com/ship.png'),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/"(name|imgUrl)"/)).toBeNull();
    expect(sent).toEqual([]);
  });

  it('creates a collection with the empty fields dropped and lists it', async () => {
    const sent = mockCollections([]);
    renderWithProviders(<CreatorConsole />);
    expect(await screen.findByText('No Data')).toBeInTheDocument();
    const { user, dialog } = await openDialog();
    await fill(user, within(dialog).getByRole('textbox', { name: /^Name/ }), ' Nova Racers ');
    await fill(
      user,
      within(dialog).getByRole('textbox', { name: /App redirect URLs/ }),
      'https://race.example.test/a\n\n https://race.example.test/b ',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Collection created')).toBeInTheDocument();
    expect(sent).toEqual([
      { name: 'Nova Racers', redirectUrls: ['https://race.example.test/a', 'https://race.example.test/b'] },
    ]);
    expect(await screen.findByRole('article', { name: 'Nova Racers' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create Collection' })).not.toBeInTheDocument());
  });

  it('edits a collection: every field sent, the app URLs one per line', async () => {
    const sent = mockCollections([{ ...fleet }]);
    mockItems([]);
    renderWithProviders(<CreatorConsole />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Orion Fleet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Collection' });
    const urls = within(dialog).getByRole('textbox', { name: /App redirect URLs/ });
    expect(urls).toHaveValue('https://fleet.example.test/callback');
    await user.clear(urls);
    await fill(user, urls, 'http://example.test/plain');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(
        'Each app redirect URL must be a full https:// address (http:// only on localhost), at most 10',
      ),
    ).toBeInTheDocument();
    expect(sent).toEqual([]);
    await user.clear(urls);
    await fill(user, urls, 'https://fleet.example.test/new\nhttps://fleet.example.test/other');
    await fill(user, within(dialog).getByRole('textbox', { name: 'App cancel URL' }), 'https://fleet.example.test/no');
    const royalty = within(dialog).getByRole('textbox', { name: /Royalty/ });
    expect(royalty).toHaveValue('0%');
    await user.clear(royalty);
    await user.type(royalty, '12.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Collection Orion Fleet updated')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        collectionId: fleet._id,
        name: 'Orion Fleet',
        description: 'Ships of the Orion game',
        imgUrl: '',
        redirectUrls: ['https://fleet.example.test/new', 'https://fleet.example.test/other'],
        cancelUrl: 'https://fleet.example.test/no',
        royalty: '0.125',
      },
    ]);
    expect(await screen.findByRole('article', { name: 'Orion Fleet' })).toHaveTextContent(
      'Redirect URLs: https://fleet.example.test/new, https://fleet.example.test/other',
    );
  });

  it('offers the first item when the collection has none, and creates it for the creator by default', async () => {
    mockCollections([fleet]);
    const sent = mockItems([]);
    useSession.setState({ user: testUser('alice', { role: 'creator' }), token: 'session-token' });
    renderWithProviders(<CreatorConsole />);
    expect(await screen.findByText('No items yet — create the first')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Create the first item' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Item' });
    await fill(user, within(dialog).getByRole('textbox', { name: /^Name/ }), 'Viper');
    const metadata = within(dialog).getByRole('textbox', { name: 'Metadata' });
    await fill(user, metadata, '[1, 2]');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(/^Metadata must be a JSON object/)).toBeInTheDocument();
    await user.clear(metadata);
    await fill(user, metadata, '{"class": "fighter", "stats": {"speed": 7}}');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Item Viper created')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        itemCollection: fleet._id,
        owner: 'alice',
        name: 'Viper',
        metadata: { class: 'fighter', stats: { speed: 7 } },
      },
    ]);
    expect(await screen.findByRole('article', { name: 'Viper' })).toHaveTextContent('stats.speed: 7');
  });

  it('edits an item: its fields prefilled, the image checked as https, the owner kept', async () => {
    mockCollections([fleet]);
    const sent = mockItems([{ ...falcon }]);
    renderWithProviders(<CreatorConsole />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Falcon' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Item' });
    expect(within(dialog).getByRole('textbox', { name: 'Owner' })).toHaveValue('bob');
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await fill(user, name, 'Falcon Mk II');
    const image = within(dialog).getByRole('textbox', { name: 'Image URL' });
    await fill(user, image, 'http://example.test/falcon.png');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('Image URL must be a full https:// address, like https://example.com/ship.png'),
    ).toBeInTheDocument();
    await user.clear(image);
    await fill(user, image, 'https://example.test/falcon.png');
    expect(within(dialog).getByRole('img', { name: 'Preview of the image' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Item Falcon Mk II updated')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        itemId: falcon._id,
        name: 'Falcon Mk II',
        description: 'A fast scout ship',
        imgUrl: 'https://example.test/falcon.png',
        metadata: { class: 'scout' },
      },
    ]);
    expect(await screen.findByRole('article', { name: 'Falcon Mk II' })).toBeInTheDocument();
  });
});
