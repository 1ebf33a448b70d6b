/**
 * The Quantum Hub's create-order form (SPEC §2) as a signed-in member uses it, against a mocked API: the
 * button that reads 'Please fill in all the fields' until side, quantity and price are in, the escrow
 * preview and the balance it needs, the order it sends (with an Idempotency-Key), and the server's answer;
 * a stop-limit order's stop price and escrow, a market order's expected average price and slippage.
 */
import { depthResponse, placeOrderResponse } from '@starlight/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { testCurrency, testOrder, testPair, testUser } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { OrderForm } from './OrderForm.tsx';

const gem = testCurrency(10, { ticker: 'GEM', name: 'GEM' });
const credits = testCurrency(11, { ticker: 'CR', name: 'CR' });
const pair = testPair(gem, credits);
const view = { pair, buy: gem, sell: credits, buyTicker: 'GEM', sellTicker: 'CR' };

function signInWith(creditsHeld: string) {
  const member = testUser('alice', { balances: [{ currencyId: credits.currencyId, amount: creditsHeld }] });
  useSession.setState({ user: member, token: 'session-token' });
}

/** What placeOrder receives (body and headers); answers with `answer`. */
function mockPlaceOrder(answer: () => AnswerOf<typeof placeOrderResponse>) {
  const sent: Array<{ body: unknown; idempotencyKey: string | null; auth: string | null }> = [];
  server.use(
    answers.post('/cex/placeOrder', placeOrderResponse, async ({ request }) => {
      sent.push({
        body: await request.json(),
        idempotencyKey: request.headers.get('idempotency-key'),
        auth: request.headers.get('authorization'),
      });
      return answer();
    }),
  );
  return sent;
}

async function fill(side: 'Buy GEM' | 'Sell GEM', quantity: string, price: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('radio', { name: side }));
  await user.type(screen.getByRole('textbox', { name: /Quantity/ }), quantity);
  await user.type(screen.getByRole('textbox', { name: /Price/ }), price);
  return user;
}

/** Picks an order type from the form's select. */
async function pickType(label: 'Market' | 'Stop-limit') {
  const user = userEvent.setup();
  await user.click(screen.getByLabelText('Order type', { selector: 'input' }));
  await user.click(await screen.findByRole('option', { name: label, hidden: true }));
  return user;
}

/** Side, quantity and price with an existing user-event session. */
async function fillIn(
  user: ReturnType<typeof userEvent.setup>,
  side: 'Buy GEM' | 'Sell GEM',
  qty: string,
  price: string,
) {
  await user.click(screen.getByRole('radio', { name: side }));
  await user.type(screen.getByRole('textbox', { name: /Quantity/ }), qty);
  await user.type(screen.getByRole('textbox', { name: /^Price/ }), price);
}

beforeEach(() => signInWith('100.00'));

describe('OrderForm', () => {
  it('asks for every field, previews the escrow, and places the order once with an Idempotency-Key', async () => {
    const sent = mockPlaceOrder(() => ({
      order: testOrder(pair._id, { initialAmount: '2', price: '1.50' }),
      trades: [],
      tx: { note: '' },
      message: 'Order placed',
    }));
    renderWithProviders(<OrderForm view={view} />);
    expect(screen.getByRole('button', { name: 'Please fill in all the fields' })).toBeDisabled();

    const user = await fill('Buy GEM', '2', '1.50');
    expect(screen.getByText('Cost (escrowed)')).toBeInTheDocument();
    expect(screen.getByText('3.00 CR')).toBeInTheDocument();
    expect(screen.getByText(/Available: 100\.00 CR/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Buy GEM' }));

    expect(await screen.findByText('Order placed')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        body: { pair: pair._id, buySide: true, initialAmount: '2', price: '1.50' },
        idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
        auth: 'Bearer session-token',
      },
    ]);
    // Ready for the next order: the quantity is cleared, the price kept.
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Quantity/ })).toHaveValue(''));
    expect(screen.getByRole('textbox', { name: /Price/ })).toHaveValue('1.50');
  });

  it('says when the balance does not cover the escrow', async () => {
    signInWith('1.00');
    renderWithProviders(<OrderForm view={view} />);
    await fill('Buy GEM', '2', '1.50');
    expect(screen.getByText(/Available: 1\.00 CR \(not enough\)/)).toBeInTheDocument();
  });

  it("shows the server's refusal and keeps what was typed", async () => {
    mockPlaceOrder(() => refuse(409, 'Insufficient funds'));
    renderWithProviders(<OrderForm view={view} />);
    const user = await fill('Sell GEM', '3', '2');
    await user.click(screen.getByRole('button', { name: 'Sell GEM' }));
    expect(await screen.findByText('Insufficient funds')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Quantity/ })).toHaveValue('3');
  });

  it('offers no side a pair forbids, and says when trading is frozen', () => {
    renderWithProviders(
      <OrderForm view={{ ...view, pair: { ...pair, canSell: false, frozen: true, frozenNote: 'Maintenance' } }} />,
    );
    expect(screen.getByRole('radio', { name: 'Sell GEM' })).toBeDisabled();
    expect(screen.getByText('Trading is frozen')).toBeInTheDocument();
    expect(screen.getByText('Maintenance')).toBeInTheDocument();
  });

  it('places a stop-limit order with its stop price, showing the escrow it takes while it waits', async () => {
    const sent = mockPlaceOrder(() => ({
      order: testOrder(pair._id, { type: 'stop_limit', state: 5, stopPrice: '1.20' }),
      trades: [],
      tx: { note: '' },
      message: 'Placed a buy order of 2.00 GEM at 1.50 CR; it waits for a trade at or above 1.20 CR',
    }));
    renderWithProviders(<OrderForm view={view} />);
    const user = await pickType('Stop-limit');
    expect(screen.getByText('Waits until a trade at or past the stop price, then places a limit order.')).toBeVisible();
    await fillIn(user, 'Buy GEM', '2', '1.50');
    // The stop price is one more field to fill.
    expect(screen.getByRole('button', { name: 'Please fill in all the fields' })).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: /Stop price/ }), '1.20');
    expect(screen.getByText(/a trade at or above it places the order/)).toBeInTheDocument();
    expect(screen.getByText('Cost (escrowed)')).toBeInTheDocument();
    expect(screen.getByText('3.00 CR')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Buy GEM' }));
    expect(await screen.findByText(/it waits for a trade at or above 1\.20 CR/)).toBeInTheDocument();
    expect(sent.map((s) => s.body)).toEqual([
      { pair: pair._id, buySide: true, initialAmount: '2', price: '1.50', type: 'stop_limit', stopPrice: '1.20' },
    ]);
  });

  it('shows a market order its expected average price and slippage from the book before it is sent', async () => {
    server.use(
      answers.post('/cex/getDepth', depthResponse, () => ({
        depth: {
          buys: [],
          sells: [
            { price: '2.00', amount: '1.00', orders: 1 },
            { price: '3.00', amount: '1.00', orders: 2 },
          ],
        },
        message: 'Depth',
      })),
    );
    renderWithProviders(<OrderForm view={view} />);
    const user = await pickType('Market');
    await user.click(screen.getByRole('radio', { name: 'Buy GEM' }));
    await user.type(screen.getByRole('textbox', { name: /Quantity/ }), '2');
    // 1 at 2.00 and 1 at 3.00: an average of 2.50, 25% worse than the best price.
    expect(await screen.findByText('2.50 CR')).toBeInTheDocument();
    expect(screen.getByText('25.00% from 2.00 CR')).toBeInTheDocument();
    await user.clear(screen.getByRole('textbox', { name: /Quantity/ }));
    await user.type(screen.getByRole('textbox', { name: /Quantity/ }), '3');
    expect(await screen.findByText(/The book shown holds only 2\.00 GEM; the rest would be cancelled/)).toBeVisible();
  });

  it('says when the book has nothing for a market order to match', async () => {
    server.use(
      answers.post('/cex/getDepth', depthResponse, () => ({ depth: { buys: [], sells: [] }, message: 'Depth' })),
    );
    renderWithProviders(<OrderForm view={view} />);
    const user = await pickType('Market');
    await user.click(screen.getByRole('radio', { name: 'Sell GEM' }));
    await user.type(screen.getByRole('textbox', { name: /Quantity/ }), '1');
    expect(await screen.findByText('No buy orders on the book to match.')).toBeInTheDocument();
  });
});
