/**
 * The dashboard's portfolio card (DESIGN §11.4) against a mocked API: the total and each holding in the
 * chosen currency (Credits first), "No price path to X" for a holding without one, a new valuation when
 * another currency is picked, the empty state, the loading line, and the server's refusal shown inline.
 */
import { currenciesResponse, type PortfolioResponse, portfolioResponse } from '@starlight/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { testCurrency, testUser } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { PortfolioCard } from './PortfolioCard.tsx';

const credits = testCurrency(3, { ticker: 'CR', name: 'Credits' });
const gem = testCurrency(10, { ticker: 'GEM', name: 'Gems' });
const dust = testCurrency(11, { ticker: 'DST', name: 'Dust', precision: 0 });

const history = (value: string) =>
  Array.from({ length: 30 }, (_, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, value }));

/** Answers the currency list, and the portfolio with `answer(currencyId)`; returns the ids asked for. */
function mockApi(
  answer: (currencyId: number) => AnswerOf<typeof portfolioResponse> | Promise<AnswerOf<typeof portfolioResponse>>,
) {
  const asked: number[] = [];
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [gem, credits, dust], message: 'OK' })),
    answers.post('/cex/portfolio', portfolioResponse, async ({ request }) => {
      const { currencyId } = (await request.json()) as { currencyId: number };
      asked.push(currencyId);
      return answer(currencyId);
    }),
  );
  return asked;
}

const inCredits: PortfolioResponse = {
  value: '1250.50',
  holdings: [
    { currencyId: 3, amount: '1000.00', price: '1', value: '1000.00' },
    { currencyId: 10, amount: '2.00', price: '125.25', value: '250.50' },
    { currencyId: 11, amount: '7', price: null, value: null },
  ],
  history: history('1250.50'),
  message: 'Got 3 holding(s) valued in CR; no price path to CR for 1',
};

beforeEach(() => {
  useSession.setState({ user: testUser('alice'), token: 'session-token' });
});

describe('PortfolioCard', () => {
  it('values every holding in Credits first, says where no price path exists, and revalues in another currency', async () => {
    const asked = mockApi((id) =>
      id === 3
        ? inCredits
        : {
            value: '10.00',
            holdings: [
              { currencyId: 3, amount: '1000.00', price: '0.007984031', value: '7.98' },
              { currencyId: 10, amount: '2.00', price: '1', value: '2.00' },
              { currencyId: 11, amount: '7', price: null, value: null },
            ],
            history: history('10.00'),
            message: 'OK',
          },
    );
    renderWithProviders(<PortfolioCard />);
    const card = screen.getByRole('region', { name: 'Portfolio' });
    expect(within(card).getByText('Loading your portfolio…')).toBeInTheDocument();
    expect(await within(card).findByTestId('portfolio-value')).toHaveTextContent('1,250.50 CR');
    const rows = within(within(card).getByRole('table', { name: 'Holdings' })).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'CurrencyAmountPrice (CR)Value (CR)',
      'CR1,000.0011,000.00',
      'GEM2.00125.25250.50',
      'DST7—No price path to CR',
    ]);
    expect(within(card).getByText(/last 30 days/)).toBeInTheDocument();
    expect(asked).toEqual([3]);

    const user = userEvent.setup();
    await user.click(within(card).getByRole('combobox', { name: 'Value in' }));
    await user.click(await screen.findByRole('option', { name: 'GEM · Gems', hidden: true }));
    await waitFor(() => expect(within(card).getByTestId('portfolio-value')).toHaveTextContent('10.00 GEM'));
    expect(asked).toEqual([3, 10]);
    expect(within(card).getByText('No price path to GEM')).toBeInTheDocument();
    expect(within(card).getByText('0.007984031')).toBeInTheDocument();
  });

  it('says so when the member holds nothing', async () => {
    mockApi(() => ({ value: '0.00', holdings: [], history: history('0.00'), message: 'Got 0 holding(s)' }));
    renderWithProviders(<PortfolioCard />);
    expect(await screen.findByText(/You hold nothing yet/)).toBeInTheDocument();
    expect(screen.getByTestId('portfolio-value')).toHaveTextContent('0.00 CR');
    expect(screen.queryByRole('table', { name: 'Holdings' })).not.toBeInTheDocument();
  });

  it("shows the server's refusal in the card", async () => {
    mockApi(() => refuse(404, 'Currency not found'));
    renderWithProviders(<PortfolioCard />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your portfolio');
    expect(alert).toHaveTextContent('Currency not found');
  });
});
