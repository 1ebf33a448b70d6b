/**
 * The Admin Console's Cex Control (SPEC §2) against a mocked API: the trading pairs with their currencies,
 * fee and status in words; Delete asking first and sending the pair's id; 'No trading pairs yet'; and the
 * server's refusal of the list.
 */
import { currenciesResponse, deletePairResponse, type Pair, pairResponse, pairsResponse } from '@starlight/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { testCurrency, testPair } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { CexControlPanel } from './CexControlPanel.tsx';

const gem = testCurrency(10, { ticker: 'GEM', name: 'Gemstone' });
const credits = testCurrency(11, { ticker: 'CR', name: 'Credits' });
const open = testPair(gem, credits, { feeCollector: 'treasury' });
const frozen = testPair(credits, gem, {
  frozen: true,
  canSell: false,
  visible: false,
  fee: '0.002',
  makerFee: '0.001',
  takerFee: '0.002',
});

/** Serves the pair list (or its refusal) and the currencies; what deletePair receives is returned. */
function mockPairs(list: () => AnswerOf<typeof pairsResponse>) {
  const deleted: unknown[] = [];
  server.use(
    answers.get('/cex/getPairs', pairsResponse, list),
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [gem, credits], message: 'OK' })),
    answers.post('/cex/deletePair', deletePairResponse, async ({ request }) => {
      deleted.push(await request.json());
      return { cancelledOrders: 2, message: 'Pair deleted, 2 orders cancelled' };
    }),
  );
  return deleted;
}

const pairs =
  (...list: Pair[]) =>
  () => ({ pairs: list, message: `Got ${list.length} pair(s)` });

describe('Cex Control', () => {
  it('lists each pair with its currencies, fee and status in words', async () => {
    mockPairs(pairs(open, frozen));
    renderWithProviders(<CexControlPanel />);
    const table = await screen.findByRole('table', { name: 'Trading Pairs' });
    const row = within(table).getByRole('cell', { name: 'GEM/CR' }).closest('tr') as HTMLElement;
    expect(await within(row).findByRole('cell', { name: 'GEM · Gemstone' })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: 'CR · Credits' })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: '0.2% → treasury' })).toBeInTheDocument();
    expect(within(row).getByTestId('pair-status')).toHaveTextContent('TradingBuys onSells on');
    const other = within(table).getByRole('cell', { name: 'CR/GEM' }).closest('tr') as HTMLElement;
    expect(within(other).getByTestId('pair-status')).toHaveTextContent('FrozenBuys onSells offHidden');
    expect(within(other).getByRole('cell', { name: 'maker 0.1% · taker 0.2%' })).toBeInTheDocument();
  });

  it("deletes a pair only once confirmed, and toasts the server's answer", async () => {
    const deleted = mockPairs(pairs(open));
    renderWithProviders(<CexControlPanel />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete GEM/CR' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Trading Pair' });
    expect(dialog).toHaveTextContent('Its open orders are cancelled and their escrow returned');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Pair deleted, 2 orders cancelled')).toBeInTheDocument();
    expect(deleted).toEqual([{ pairId: open._id }]);
  });

  it('edits the maker and taker fees as percents and sends only the one that changed', async () => {
    mockPairs(pairs(open));
    const modified: unknown[] = [];
    server.use(
      answers.post('/cex/modifyPair', pairResponse, async ({ request }) => {
        modified.push(await request.json());
        return { pair: { ...open, takerFee: '0.005', fee: '0.005' }, message: 'Pair modified' };
      }),
    );
    renderWithProviders(<CexControlPanel />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Modify GEM/CR' }));
    const dialog = await screen.findByRole('dialog', { name: 'Modify Trading Pair' });
    expect(within(dialog).getByLabelText(/^Maker fee \(%\)/)).toHaveValue('0.2');
    const taker = within(dialog).getByLabelText(/^Taker fee \(%\)/);
    expect(taker).toHaveValue('0.2');
    await user.clear(taker);
    await user.type(taker, '0.5');
    await user.click(within(dialog).getByRole('button', { name: 'Modify' }));
    expect(await screen.findByText('Pair modified')).toBeInTheDocument();
    expect(modified).toEqual([{ pairId: open._id, takerFee: '0.005' }]);
  });

  it("says 'No trading pairs yet', and shows a refused list as the server worded it", async () => {
    mockPairs(pairs());
    const { unmount } = renderWithProviders(<CexControlPanel />);
    expect(await screen.findByText('No trading pairs yet')).toBeInTheDocument();
    unmount();
    mockPairs(() => refuse(403, 'Not authorized'));
    renderWithProviders(<CexControlPanel />);
    expect(await screen.findByText('Not authorized')).toBeInTheDocument();
  });
});
