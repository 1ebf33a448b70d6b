/**
 * The Admin Console's Checkout Logs (SPEC §2) against a mocked API: each purchase in SPEC's columns with
 * its provider and state by name, Event History in a dialog or 'None', the filters sent on Search, and
 * 'No logs found'.
 */
import { type Checkout, checkoutsResponse, packagesResponse } from '@starlight/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answers } from '../../../test/answer.ts';
import { testCheckout } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { CheckoutLogsTab } from './CheckoutLogsTab.tsx';

const pkg = { _id: '6a0000000000000000000091', name: 'Starter pack', cost: '4.99' };

/** Serves `transactions` as every checkout; the request bodies are returned. */
function mockLogs(transactions: Checkout[]) {
  const asked: unknown[] = [];
  server.use(
    answers.get('/checkout/packages/fetch', packagesResponse, () => ({ packages: [], providers: [], message: 'OK' })),
    answers.post('/checkout/getAllTransactions', checkoutsResponse, async ({ request }) => {
      asked.push(await request.json());
      return { transactions, total: transactions.length, totalCapped: false, message: 'OK' };
    }),
  );
  return asked;
}

describe('Checkout Logs', () => {
  it("shows each purchase in SPEC's columns, its provider events in a dialog", async () => {
    mockLogs([
      testCheckout(pkg, 'alice', {
        checkoutProvider: 2,
        state: 3,
        eventHistory: [{ eventType: 'payment.pending', dateReceived: '2026-11-01T00:05:00.000Z' }],
      }),
      testCheckout(pkg, 'bob', { _id: '6a0000000000000000000092' }),
    ]);
    renderWithProviders(<CheckoutLogsTab />);
    const alice = (await screen.findByRole('cell', { name: 'alice' })).closest('tr') as HTMLElement;
    const cells = within(alice).getAllByRole('cell');
    expect(cells.slice(0, 6).map((c) => c.textContent)).toEqual([
      '01/11/2026, 00:00:00',
      'alice',
      'Starter pack',
      '$4.99',
      'Card',
      'Pending',
    ]);
    const bob = screen.getByRole('cell', { name: 'bob' }).closest('tr') as HTMLElement;
    expect(within(bob).getByRole('cell', { name: 'None' })).toBeInTheDocument();
    await userEvent.setup().click(within(alice).getByRole('button', { name: 'Event History of alice Starter pack' }));
    const events = await screen.findByRole('table', { name: 'Event History' });
    expect(events).toHaveTextContent('payment.pending');
  });

  it("sends the typed filters on Search, and says 'No logs found'", async () => {
    const asked = mockLogs([]);
    renderWithProviders(<CheckoutLogsTab />);
    expect(await screen.findByText('No logs found')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Nickname' }), 'bob');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Provider' }), 'Crypto');
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'Pending');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('No logs found');
    expect(asked[0]).toEqual({ paging: { limit: 10, page: 1 }, filters: {} });
    expect(asked).toContainEqual({
      paging: { limit: 10, page: 1 },
      filters: { nickname: 'bob', checkoutProvider: 1, state: 3 },
    });
  });
});
