/**
 * The Quantum Hub's create-order form (SPEC §2) as a signed-in member uses it, against a mocked API: the
 * button that reads 'Please fill in all the fields' until side, quantity and price are in, the escrow
 * preview and the balance it needs, the order it sends (with an Idempotency-Key), and the server's answer.
 */
import type { Pair, User } from '@starlight/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { testCurrency } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { OrderForm } from './OrderForm.tsx';

const gem = testCurrency(10, { ticker: 'GEM', name: 'GEM' });
const credits = testCurrency(11, { ticker: 'CR', name: 'CR' });
const pair: Pair = {
  _id: '6a0000000000000000000001',
  name: 'GEM/CR',
  buyCurrency: gem.currencyId,
  sellCurrency: credits.currencyId,
  canBuy: true,
  canSell: true,
  visible: true,
  frozen: false,
  frozenNote: '',
  fee: '0.002',
  feeCollector: '',
  createdAt: '2026-11-01T00:00:00.000Z',
};
const view = { pair, buy: gem, sell: credits, buyTicker: 'GEM', sellTicker: 'CR' };

function signInWith(creditsHeld: string) {
  const member: User = {
    _id: '6a0000000000000000000002',
    nickname: 'alice',
    email: 'alice@example.test',
    role: 'user',
    primaryWallet: null,
    isActive: true,
    isWalletOnly: false,
    isEmailVerified: true,
    isAnonymous: false,
    referrer: null,
    fame: 0,
    balances: [{ currencyId: credits.currencyId, amount: creditsHeld }],
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  } as User;
  useSession.setState({ user: member, token: 'session-token' });
}

/** What placeOrder receives (body and headers); answers with `answer`. */
function mockPlaceOrder(answer: () => Response) {
  const sent: Array<{ body: unknown; idempotencyKey: string | null; auth: string | null }> = [];
  server.use(
    http.post('*/api/cex/placeOrder', async ({ request }) => {
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

beforeEach(() => signInWith('100.00'));

describe('OrderForm', () => {
  it('asks for every field, previews the escrow, and places the order once with an Idempotency-Key', async () => {
    const sent = mockPlaceOrder(() => HttpResponse.json({ order: {}, message: 'Order placed' }));
    renderWithProviders(<OrderForm view={view} />);
    const waiting = screen.getByRole('button', { name: 'Please fill in all the fields' }) as HTMLButtonElement;
    expect(waiting.disabled).toBe(true);

    const user = await fill('Buy GEM', '2', '1.50');
    expect(screen.getByText('Cost (escrowed)')).toBeTruthy();
    expect(screen.getByText('3.00 CR')).toBeTruthy();
    expect(screen.getByText(/Available: 100\.00 CR/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Buy GEM' }));

    expect(await screen.findByText('Order placed')).toBeTruthy();
    expect(sent).toEqual([
      {
        body: { pair: pair._id, buySide: true, initialAmount: '2', price: '1.50' },
        idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
        auth: 'Bearer session-token',
      },
    ]);
    // Ready for the next order: the quantity is cleared, the price kept.
    await waitFor(() => expect((screen.getByRole('textbox', { name: /Quantity/ }) as HTMLInputElement).value).toBe(''));
    expect((screen.getByRole('textbox', { name: /Price/ }) as HTMLInputElement).value).toBe('1.50');
  });

  it('says when the balance does not cover the escrow', async () => {
    signInWith('1.00');
    renderWithProviders(<OrderForm view={view} />);
    await fill('Buy GEM', '2', '1.50');
    expect(screen.getByText(/Available: 1\.00 CR \(not enough\)/)).toBeTruthy();
  });

  it("shows the server's refusal and keeps what was typed", async () => {
    mockPlaceOrder(() => HttpResponse.json({ message: 'Insufficient funds' }, { status: 409 }));
    renderWithProviders(<OrderForm view={view} />);
    const user = await fill('Sell GEM', '3', '2');
    await user.click(screen.getByRole('button', { name: 'Sell GEM' }));
    expect(await screen.findByText('Insufficient funds')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: /Quantity/ }) as HTMLInputElement).value).toBe('3');
  });

  it('offers no side a pair forbids, and says when trading is frozen', () => {
    renderWithProviders(
      <OrderForm view={{ ...view, pair: { ...pair, canSell: false, frozen: true, frozenNote: 'Maintenance' } }} />,
    );
    expect((screen.getByRole('radio', { name: 'Sell GEM' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText('Trading is frozen')).toBeTruthy();
    expect(screen.getByText('Maintenance')).toBeTruthy();
  });
});
