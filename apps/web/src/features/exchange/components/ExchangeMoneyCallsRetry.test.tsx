/**
 * The Quantum Hub's money calls, retried after a lost answer (DESIGN §3, §5): placing an order, Cancel on
 * one of my orders, and the admin's Payout of a sell order (confirmed first). The first press reaches the
 * server and commits, the member sees 'Network Error'; pressing again sends the same Idempotency-Key, so
 * the escrow moves once, and the success shows.
 */
import { notifications } from '@mantine/notifications';
import {
  currenciesResponse,
  type Order,
  orderResponse,
  ordersPageResponse,
  placeOrderResponse,
} from '@starlight/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { answers } from '../../../test/answer.ts';
import { testCurrency, testPair } from '../../../test/fixtures.ts';
import { expectRetriedOnce, pressTwice, serveMoneyMoving, signInMember } from '../../../test/money-retry.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { MyOrders } from './MyOrders.tsx';
import { OrderForm } from './OrderForm.tsx';
import { PairOrdersModal } from './PairOrdersModal.tsx';

const gem = testCurrency(10, { ticker: 'GEM', name: 'GEM' });
const credits = testCurrency(11, { ticker: 'CR', name: 'CR' });
const pair = testPair(gem, credits);
const sell: Order = {
  _id: '6a0000000000000000000071',
  pair: pair._id,
  buySide: false,
  initialAmount: '2.00',
  filledAmount: '0.00',
  price: '1.50',
  state: 1,
  createdAt: '2026-11-01T00:00:00.000Z',
  type: 'limit',
  timeInForce: 'GTC',
  postOnly: false,
  stopPrice: null,
  expiresAt: null,
  expired: false,
};

beforeEach(() => {
  // The toasts of the last test are still in the store: start from none.
  notifications.clean();
  signInMember([{ currencyId: credits.currencyId, amount: '100.00' }]);
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [gem, credits], message: 'OK' })),
    answers.post('/cex/getMyOrdersPage', ordersPageResponse, () => ({
      orders: [sell],
      total: 1,
      totalCapped: false,
      message: 'OK',
    })),
    answers.post('/cex/getBookPage', ordersPageResponse, async ({ request }) => {
      const { buySide } = (await request.json()) as { buySide: boolean };
      return { orders: buySide ? [] : [sell], total: buySide ? 0 : 1, totalCapped: false, message: 'OK' };
    }),
  );
});

describe("the Quantum Hub's money calls, retried after a lost answer", () => {
  it('placing an order: sent again, escrows once', async () => {
    const ledger = serveMoneyMoving('/cex/placeOrder', placeOrderResponse, {
      order: sell,
      trades: [],
      tx: { note: 'Order placed' },
      message: 'Order placed',
    });
    renderWithProviders(<OrderForm view={{ pair, buy: gem, sell: credits, buyTicker: 'GEM', sellTicker: 'CR' }} />);
    const u = userEvent.setup();
    await u.click(screen.getByRole('radio', { name: 'Sell GEM' }));
    await u.type(screen.getByRole('textbox', { name: /Quantity/ }), '2');
    await u.type(screen.getByRole('textbox', { name: /Price/ }), '1.50');
    await pressTwice(() => u.click(screen.getByRole('button', { name: 'Sell GEM' })), 'Order placed');
    expectRetriedOnce(ledger);
    expect(ledger.bodies[0]).toEqual({ pair: pair._id, buySide: false, initialAmount: '2', price: '1.50' });
  });

  it('Cancel on my order: sent again, returns the escrow once', async () => {
    const ledger = serveMoneyMoving('/cex/cancelOrder', orderResponse, {
      order: { ...sell, state: 2 },
      message: 'Order cancelled',
    });
    renderWithProviders(<MyOrders pairs={[pair]} currentPair={pair._id} />);
    const u = userEvent.setup();
    await pressTwice(async () => u.click(await screen.findByRole('button', { name: 'Cancel' })), 'Order cancelled');
    expectRetriedOnce(ledger);
    expect(ledger.bodies[0]).toEqual({ orderId: sell._id });
  });

  it("the admin's Payout of a sell order: confirmed again, burns the escrow once", async () => {
    signInMember([], 'admin');
    const ledger = serveMoneyMoving('/cex/payoutOrder', orderResponse, {
      order: { ...sell, state: 3 },
      message: 'Order paid out',
    });
    renderWithProviders(<PairOrdersModal pair={pair} onClose={() => {}} />);
    const u = userEvent.setup();
    const payout = async () => {
      await u.click(await screen.findByRole('button', { name: /^Payout the sell order of 2\.00 GEM at 1\.50 CR/ }));
      const confirm = await screen.findByRole('dialog', { name: 'Payout Sell Order' });
      await u.click(within(confirm).getByRole('button', { name: 'Payout' }));
    };
    await pressTwice(payout, 'Order paid out');
    expectRetriedOnce(ledger);
    expect(ledger.bodies[0]).toEqual({ orderId: sell._id });
  });
});
