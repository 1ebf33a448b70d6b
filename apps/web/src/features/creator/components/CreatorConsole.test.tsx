/**
 * The Creator console (SPEC §2) against a mocked API: the creator's collections with their app URLs, SPEC's
 * 'No Data', and Create Collection: SPEC §5's messages at the fields before anything is sent, then the
 * request with empty fields dropped and redirect URLs one per line, the answer toasted and the list
 * refreshed.
 */
import {
  type CollectionsResponse,
  collectionResponse,
  collectionsResponse,
  type OwnCollection,
} from '@starlight/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answers } from '../../../test/answer.ts';
import { CREATED, testId } from '../../../test/fixtures.ts';
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
    renderWithProviders(<CreatorConsole />);
    const table = await screen.findByRole('table', { name: 'My collections' });
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Orion Fleet', fleet._id, 'https://fleet.example.test/callback', '—']);
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
    expect(within(dialog).getByText('Image URL contains an invalid value')).toBeInTheDocument();
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
    expect(await screen.findByRole('cell', { name: 'Nova Racers' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create Collection' })).not.toBeInTheDocument());
  });
});
