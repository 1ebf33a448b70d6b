/**
 * The Sell dialog (DESIGN §11.5) against a mocked API: only transferable, unfrozen currencies are offered;
 * a price past the currency's precision is said in words and nothing is sent; a good one lists the item
 * and the dialog says what the seller receives after the collection's royalty; a refusal shows in it.
 */
import { currenciesResponse, type GroupedItem, type Listing, listingResponse } from '@starlight/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { answers, refuse } from '../../../test/answer.ts';
import { testCurrency } from '../../../test/fixtures.ts';
import { signInMember } from '../../../test/money-retry.ts';
import { server } from '../../../test/setup.ts';
import { renderRoute, renderWithProviders } from '../../../test/TestProviders.tsx';
import { priceProblem, SellItemModal } from './SellItemModal.tsx';

const gems = testCurrency(5, { ticker: 'GEM', name: 'Gems', precision: 2 });
const frozen = testCurrency(6, { ticker: 'ICE', name: 'Ice', isFrozen: true });
const bound = testCurrency(7, { ticker: 'SBT', name: 'Bound', canTransfer: false });

const falcon: GroupedItem = {
  itemId: 'bbbbbbbbbbbbbbbbbbbbbbbb',
  name: 'Falcon',
  count: 2,
  imgUrl: '',
  description: '',
  metadata: {},
  variabledata: {},
};

const listed: Listing = {
  _id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  item: { _id: falcon.itemId, name: 'Falcon', imgUrl: '', itemCollection: 'cccccccccccccccccccccccc' },
  seller: { nickname: 'alice' },
  buyer: null,
  currencyId: 5,
  price: '12.500000000',
  royalty: '0.100000000',
  sellerReceives: '11.250000000',
  state: 'open',
  createdAt: '2026-12-01T10:00:00.000Z',
  soldAt: null,
};

beforeEach(() => {
  signInMember();
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [gems, frozen, bound], message: 'OK' })),
  );
});

async function choose(u: ReturnType<typeof userEvent.setup>) {
  await u.click(await screen.findByRole('combobox', { name: /Currency/ }));
  // Mantine's dropdown never finishes its opening transition in jsdom: its options count as hidden.
  const option = await screen.findByRole('option', { name: 'Gems (GEM)', hidden: true });
  // Only currencies that allow transfers and are not frozen are offered.
  expect(screen.queryByRole('option', { name: 'Ice (ICE)', hidden: true })).toBeNull();
  expect(screen.queryByRole('option', { name: 'Bound (SBT)', hidden: true })).toBeNull();
  await u.click(option);
}

describe('SellItemModal', () => {
  it('refuses a price past the precision in words, then lists and says what the seller receives', async () => {
    const sent: unknown[] = [];
    server.use(
      answers.post('/market/createListing', listingResponse, async ({ request }) => {
        sent.push(await request.json());
        return { listing: listed, message: 'Falcon is listed for 12.50 GEM' };
      }),
    );
    // The success links to the Market: the dialog needs a router.
    renderRoute('/userbank', () => <SellItemModal item={falcon} onClose={() => {}} />, ['/market']);
    const u = userEvent.setup();
    await choose(u);
    const price = screen.getByRole('textbox', { name: /Price/ });
    await u.type(price, '12.345{Enter}');
    expect(await screen.findByText('Price can have at most 2 decimals')).toBeInTheDocument();
    expect(sent).toEqual([]);
    await u.clear(price);
    await u.type(price, '12.5{Enter}');
    expect(await screen.findByTestId('sell-receives')).toHaveTextContent(
      "You receive 11.25 GEM after the collection's 10% royalty.",
    );
    expect(sent).toEqual([{ itemId: falcon.itemId, currencyId: 5, price: '12.5' }]);
    await u.click(screen.getByRole('link', { name: 'See it in the Market' }));
    expect(await screen.findByRole('heading', { name: 'Page at /market' })).toBeInTheDocument();
  });

  it('shows a refusal in the dialog', async () => {
    server.use(
      answers.post('/market/createListing', listingResponse, () => refuse(409, 'This item is already listed')),
    );
    renderWithProviders(<SellItemModal item={falcon} onClose={() => {}} />);
    const u = userEvent.setup();
    await choose(u);
    await u.type(screen.getByRole('textbox', { name: /Price/ }), '3{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('This item is already listed');
  });
});

describe('priceProblem', () => {
  it('says what is wrong with a price in words', () => {
    expect(priceProblem('', 2)).toBe('Price is required');
    expect(priceProblem('abc', 2)).toBe('Price must be a number, like 12.50');
    expect(priceProblem('0', 2)).toBe('Price must be at least 0.01');
    expect(priceProblem('1.5', 0)).toBe('Price must be a whole number');
    expect(priceProblem('1.25', 2)).toBeNull();
  });
});
