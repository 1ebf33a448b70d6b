/**
 * /synthchips (SPEC §2 Synth chips) as a route against a mocked API: the chips left and their price, the
 * drop table, a visitor's way to log in, 'All Sold Out', the quantity's bounds (1 to 100) and the
 * purchase it sends, and the server's refusal.
 */
import {
  type BuySynthChipsResponse,
  buySynthChipsResponse,
  currenciesResponse,
  dropTableResponse,
  meResponse,
  synthChipsResponse,
} from '@starlight/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { testCurrency, testUser } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderRoute } from '../../../test/TestProviders.tsx';
import { SynthChipsPage } from './SynthChipsPage.tsx';

const CHIPS = 40;
const member = testUser('alice', {
  balances: [
    { currencyId: 3, amount: '250' },
    { currencyId: CHIPS, amount: '2' },
  ],
});

/** The sale with `remaining` chips, the drop table and the member; what buySynthChips receives is returned. */
function mockSale(remaining: number, buy: () => AnswerOf<typeof buySynthChipsResponse> = () => refuse(400, 'unused')) {
  const sent: unknown[] = [];
  server.use(
    answers.get('/inventory/synthChips', synthChipsResponse, () => ({
      remaining,
      price: '12.5',
      currencyId: CHIPS,
      message: 'OK',
    })),
    answers.get('/inventory/dropTable', dropTableResponse, () => ({
      table: [
        { rarity: 'Common', odds: '0.7000', ships: ['Skiff', 'Hauler'] },
        { rarity: 'Legendary', odds: '0.0100', ships: ['Orion'] },
      ],
      shipsPerChip: 5,
      message: 'OK',
    })),
    answers.get('/bank/currencies', currenciesResponse, () => ({
      currencies: [testCurrency(3, { ticker: 'CR', name: 'Credits' })],
      message: 'OK',
    })),
    answers.get('/user/me', meResponse, () => ({ user: member, message: 'OK' })),
    answers.post('/inventory/buySynthChips', buySynthChipsResponse, async ({ request }) => {
      sent.push(await request.json());
      return buy();
    }),
  );
  return sent;
}

const bought = (): BuySynthChipsResponse => ({ remaining: 997, message: 'You bought 3 synth chips' });

beforeEach(() => useSession.setState({ user: null, token: null }));

describe('/synthchips', () => {
  it('shows a visitor the sale, its price and the drop table, and the way to log in', async () => {
    mockSale(1000);
    renderRoute('/synthchips', SynthChipsPage, ['/login', '/openasc']);
    expect(await screen.findByTestId('chips-remaining')).toHaveTextContent('1,000 left');
    expect(await screen.findByText(/12\.50 CR each/)).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Drop table' });
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Common70%Skiff, Hauler');
    expect(within(table).getAllByRole('row')[2]).toHaveTextContent('Legendary1%Orion');
    expect(screen.getByRole('link', { name: 'Log in to buy synth chips' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy' })).not.toBeInTheDocument();
  });

  it('holds the quantity to 1 to 100, then sends the purchase and toasts the answer', async () => {
    useSession.setState({ user: member, token: 'session-token' });
    const sent = mockSale(1000, bought);
    renderRoute('/synthchips', SynthChipsPage, ['/login', '/openasc']);
    const quantity = await screen.findByRole('textbox', { name: 'Quantity' });
    expect(await screen.findByTestId('chips-held')).toHaveTextContent('2');
    const user = userEvent.setup();
    await user.clear(quantity);
    await user.type(quantity, '101');
    expect(screen.getByText('From 1 to 100')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy' })).toBeDisabled();
    await user.clear(quantity);
    await user.type(quantity, '3');
    expect(screen.queryByText('From 1 to 100')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Buy' }));
    expect(await screen.findByText('You bought 3 synth chips')).toBeInTheDocument();
    expect(sent).toEqual([{ amount: 3 }]);
  });

  it("says 'All Sold Out' and offers no purchase", async () => {
    useSession.setState({ user: member, token: 'session-token' });
    mockSale(0);
    renderRoute('/synthchips', SynthChipsPage, ['/login', '/openasc']);
    expect(await screen.findByTestId('chips-remaining')).toHaveTextContent('All Sold Out');
    expect(screen.getByRole('button', { name: 'Buy' })).toBeDisabled();
  });

  it("toasts the server's refusal", async () => {
    useSession.setState({ user: member, token: 'session-token' });
    mockSale(5, () => refuse(409, 'Insufficient funds'));
    renderRoute('/synthchips', SynthChipsPage, ['/login', '/openasc']);
    await screen.findByTestId('chips-remaining');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Buy' }));
    expect(await screen.findByText('Insufficient funds')).toBeInTheDocument();
  });
});
