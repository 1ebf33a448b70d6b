/**
 * The buy dialog (DESIGN §11.5) against a mocked API: it shows the item, "You pay" and the member's
 * available balance; a lost answer retried sends the same Idempotency-Key (one purchase) and the success
 * toasts; a refusal ('This listing has been sold') shows in the dialog; one's own listing cannot be bought.
 */
import { notifications } from '@mantine/notifications';
import { currenciesResponse, type Listing, listingResponse, meResponse } from '@starlight/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { answers, refuse } from '../../../test/answer.ts';
import { testCurrency } from '../../../test/fixtures.ts';
import { expectRetriedOnce, pressTwice, serveMoneyMoving, signInMember } from '../../../test/money-retry.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { BuyListingModal } from './BuyListingModal.tsx';

const coin = testCurrency(5, { ticker: 'GEM', name: 'Gems', precision: 2 });

const falcon: Listing = {
  _id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  item: { _id: 'bbbbbbbbbbbbbbbbbbbbbbbb', name: 'Falcon', imgUrl: '', itemCollection: 'cccccccccccccccccccccccc' },
  seller: { nickname: 'bob' },
  buyer: null,
  currencyId: coin.currencyId,
  price: '12.500000000',
  royalty: '0.100000000',
  sellerReceives: '11.250000000',
  state: 'open',
  createdAt: '2026-12-01T10:00:00.000Z',
  soldAt: null,
};

beforeEach(() => {
  notifications.clean();
  const member = signInMember([{ currencyId: coin.currencyId, amount: '100.00' }]);
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [coin], message: 'OK' })),
    answers.get('/user/me', meResponse, () => ({ user: member, message: 'OK' })),
  );
});

describe('BuyListingModal', () => {
  it('shows what is paid and the balance; a retry after a lost answer buys once', async () => {
    const ledger = serveMoneyMoving('/market/buy', listingResponse, {
      listing: { ...falcon, state: 'sold', buyer: { nickname: 'alice' }, soldAt: '2026-12-01T11:00:00.000Z' },
      message: 'You bought Falcon for 12.50 GEM',
    });
    const onClose = vi.fn();
    renderWithProviders(<BuyListingModal listing={falcon} onClose={onClose} />);
    expect(await screen.findByText('You pay 12.50 GEM')).toBeInTheDocument();
    expect(await screen.findByText('Available: 100.00 GEM')).toBeInTheDocument();
    expect(screen.getByText('Sold by bob')).toBeInTheDocument();
    const u = userEvent.setup();
    await pressTwice(
      () => u.click(screen.getByRole('button', { name: 'Buy for 12.50 GEM' })),
      'You bought Falcon for 12.50 GEM',
    );
    expectRetriedOnce(ledger);
    expect(ledger.bodies[0]).toEqual({ listingId: falcon._id });
    expect(onClose).toHaveBeenCalled();
  });

  it('says in the dialog when the listing was sold meanwhile, and stays open', async () => {
    server.use(answers.post('/market/buy', listingResponse, () => refuse(409, 'This listing has been sold')));
    const onClose = vi.fn();
    renderWithProviders(<BuyListingModal listing={falcon} onClose={onClose} />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Buy for 12.50 GEM' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This listing has been sold');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('does not offer to buy one’s own listing', async () => {
    renderWithProviders(<BuyListingModal listing={{ ...falcon, seller: { nickname: 'alice' } }} onClose={() => {}} />);
    expect(await screen.findByText(/This is your own listing/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy for 12.50 GEM' })).toBeDisabled();
  });
});
