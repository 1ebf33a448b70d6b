/**
 * My orders (SPEC §2, DESIGN §11.4) with stop-limit orders, against a mocked API: the Stops list asks for
 * state 5 and shows each waiting order Untriggered with its stop price and a Cancel button, and Cancel all
 * counts the waiting stops with the open orders; a good-till-date order the server cancelled at its time reads
 * Expired, one its member cancelled earlier reads Cancelled.
 */
import { currenciesResponse, type Order, ordersPageResponse } from '@starlight/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { answers } from '../../../test/answer.ts';
import { testCurrency, testOrder, testPair } from '../../../test/fixtures.ts';
import { signInMember } from '../../../test/money-retry.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { MyOrders } from './MyOrders.tsx';

const gem = testCurrency(10, { ticker: 'GEM', name: 'GEM' });
const credits = testCurrency(11, { ticker: 'CR', name: 'CR' });
const pair = testPair(gem, credits);
const stop: Order = testOrder(pair._id, {
  initialAmount: '2.00',
  price: '3.00',
  state: 5,
  type: 'stop_limit',
  stopPrice: '2.50',
});

const expiresAt = '2026-11-02T10:00:00.000Z';
const expired: Order = testOrder(pair._id, {
  _id: 'expired',
  initialAmount: '4.00',
  state: 2,
  expiresAt,
  expired: true,
});
const cancelled: Order = testOrder(pair._id, {
  _id: 'cancelled',
  initialAmount: '5.00',
  state: 2,
  expiresAt,
  expired: false,
});

/** The states My orders asked for, in order. */
let asked: number[] = [];

beforeEach(() => {
  asked = [];
  signInMember([{ currencyId: credits.currencyId, amount: '100.00' }]);
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [gem, credits], message: 'OK' })),
    answers.post('/cex/getMyOrdersPage', ordersPageResponse, async ({ request }) => {
      const { state } = (await request.json()) as { state: number };
      asked.push(state);
      const orders = state === 5 ? [stop] : state === 2 ? [expired, cancelled] : [];
      return { orders, total: orders.length, totalCapped: false, message: 'OK' };
    }),
  );
});

describe('My orders with stop-limit orders', () => {
  it('lists waiting stops Untriggered with their stop price, each with Cancel', async () => {
    renderWithProviders(<MyOrders pairs={[pair]} currentPair={pair._id} />);
    expect(await screen.findByText('No orders Found')).toBeInTheDocument();
    // Cancel all counts the waiting stop although the Open list is empty.
    expect(await screen.findByRole('button', { name: /Cancel all 1 open order on/ })).toBeEnabled();
    await userEvent.setup().click(screen.getByText('Stops', { exact: true }));
    expect(await screen.findByText('Untriggered')).toBeInTheDocument();
    expect(screen.getByText(/Stop-limit at 2\.50 CR · GTC/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
    expect(asked).toContain(5);
  });

  it('tells an expired order from a cancelled one', async () => {
    renderWithProviders(<MyOrders pairs={[pair]} currentPair={pair._id} />);
    expect(await screen.findByText('No orders Found')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByText('Cancelled', { exact: true }));
    const rows = await screen.findAllByRole('row', { name: /Buy order/ });
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual(['Buy order Expired', 'Buy order Cancelled']);
    expect(screen.getByText(/Limit · GTC · Expired/)).toBeInTheDocument();
    expect(screen.getByText(/Limit · GTC · Expires/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
  });
});
