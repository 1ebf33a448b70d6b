/**
 * "By item" (ItemGroups) against a mocked API: the server's groups with the lowest price at the currency's
 * precision and the count; Next sends the server's cursor and Previous goes back; a name is picked with
 * its currency; the name filter is sent; an empty answer says so.
 */
import { currenciesResponse, type ListingsByItemRequest, listingsByItemResponse } from '@starlight/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { answers } from '../../../test/answer.ts';
import { testCurrency } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { ItemGroups } from './ItemGroups.tsx';

const coin = testCurrency(5, { ticker: 'GEM', name: 'Gems', precision: 2 });

function serve(pages: Record<string, ReturnType<typeof listingsByItemResponse.parse>>) {
  const sent: ListingsByItemRequest[] = [];
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [coin], message: 'OK' })),
    answers.post('/market/listingsByItem', listingsByItemResponse, async ({ request }) => {
      const body = (await request.json()) as ListingsByItemRequest;
      sent.push(body);
      return pages[body.after?.name ?? ''] ?? { groups: [], next: null, message: 'No Data' };
    }),
  );
  return sent;
}

const group = (name: string, lowestPrice: string, count: number) => ({
  name,
  currencyId: coin.currencyId,
  lowestPrice,
  count,
});

describe('ItemGroups', () => {
  it('shows the groups, pages by the cursor and picks a name', async () => {
    const sent = serve({
      '': {
        groups: [group('Comet', '3.000000000', 1), group('Falcon', '9.750000000', 2)],
        next: { name: 'Falcon', currencyId: coin.currencyId },
        message: 'Got 2 item(s)',
      },
      Falcon: { groups: [group('Kestrel', '12.500000000', 4)], next: null, message: 'Got 1 item(s)' },
    });
    const onPick = vi.fn();
    renderWithProviders(<ItemGroups collection="cccccccccccccccccccccccc" name="" currencyId={null} onPick={onPick} />);
    const table = await screen.findByRole('table', { name: 'Listings by item' });
    await waitFor(() => expect(within(table).getAllByTestId('item-group')).toHaveLength(2));
    expect(within(table).getByRole('row', { name: /Falcon/ })).toHaveTextContent('Falcon9.75 GEM2');
    expect(sent[0]).toEqual({ limit: 20, itemCollectionId: 'cccccccccccccccccccccccc' });

    const user = userEvent.setup();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByRole('row', { name: /Kestrel/ })).toHaveTextContent('Kestrel12.50 GEM4'));
    expect(sent.at(-1)).toMatchObject({ after: { name: 'Falcon', currencyId: coin.currencyId } });
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await user.click(await screen.findByRole('button', { name: 'Comet' }));
    expect(onPick).toHaveBeenCalledWith('Comet', coin.currencyId);
  });

  it('says when nothing is for sale', async () => {
    serve({});
    renderWithProviders(<ItemGroups collection={null} name="" currencyId={null} onPick={() => {}} />);
    expect(await screen.findByTestId('market-empty')).toHaveTextContent('Nothing is for sale yet.');
  });

  it('asks for the names starting with the filter, and says when none match', async () => {
    const sent = serve({});
    renderWithProviders(<ItemGroups collection={null} name="Kes" currencyId="5" onPick={() => {}} />);
    expect(await screen.findByTestId('market-empty')).toHaveTextContent('No open listings match these filters.');
    expect(sent[0]).toEqual({ limit: 20, name: 'Kes', currencyId: 5 });
  });
});
