/**
 * /checkout, Buy Credits (SPEC §2), as a route against a mocked API: the packages on sale with their
 * price, the providers the server offers, buying one (the request, the toast, the 5-second notice with
 * "Go now" that sends the member to the payment page), a signed-out visitor's way to log in, and a server
 * with no provider.
 */
import { type CheckoutPackage, PACKAGE_ITEM_TYPE } from '@starlight/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { testCurrency } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderRoute } from '../../../test/TestProviders.tsx';
import { CheckoutPage } from './CheckoutPage.tsx';

const credits = testCurrency(3, { ticker: 'CR', name: 'Credits' });
const starter: CheckoutPackage = {
  _id: '6a0000000000000000000011',
  name: 'Starter pack',
  description: '500 Credits and two synth chips',
  imgUrl: '',
  cost: '4.99',
  currency: { currencyId: 3, amount: '500' },
  amount: '500',
  items: [{ type: PACKAGE_ITEM_TYPE.SynthChips, amount: 2 }],
  active: true,
  published: true,
  createdAt: '2026-11-01T00:00:00.000Z',
};

/** The API: the package list with `providers`, the currencies, and what buyPackage receives. */
function mockApi(providers: number[]) {
  const bought: unknown[] = [];
  server.use(
    http.get('*/api/checkout/packages/fetch', () =>
      HttpResponse.json({ packages: [starter], providers, message: 'OK' }),
    ),
    http.get('*/api/bank/currencies', () => HttpResponse.json({ currencies: [credits], message: 'OK' })),
    http.post('*/api/checkout/buyPackage', async ({ request }) => {
      bought.push(await request.json());
      return HttpResponse.json({
        link: '/checkout/sandbox/c1/pay',
        checkout: {},
        message: 'Checkout created, you will be redirected to the payment page',
      });
    }),
  );
  return bought;
}

beforeEach(() => useSession.setState({ user: null, token: null }));

describe('/checkout', () => {
  it('lists the packages; a member buys one with the chosen provider and is sent to its payment page', async () => {
    useSession.setState({ token: 'session-token' });
    const bought = mockApi([1, 2]);
    const router = renderRoute('/checkout', CheckoutPage, ['/checkout/sandbox/c1/pay']);
    expect(await screen.findByRole('heading', { name: 'Starter pack' })).toBeTruthy();
    expect(screen.getByText('$4.99')).toBeTruthy();
    expect(await screen.findByText('500.00 CR')).toBeTruthy();

    const user = userEvent.setup();
    await user.click(screen.getByText('Crypto'));
    await user.click(screen.getByRole('button', { name: 'Buy Starter pack' }));
    expect(await screen.findByText('Checkout created, you will be redirected to the payment page')).toBeTruthy();
    expect(bought).toEqual([{ packageId: starter._id, providerId: 1 }]);
    expect(screen.getByText('Redirecting to the payment provider')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Go now' }));
    expect(await screen.findByRole('heading', { name: 'Page at /checkout/sandbox/c1/pay' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/checkout/sandbox/c1/pay');
  });

  it('offers a signed-out visitor the way to log in instead of Buy', async () => {
    mockApi([2]);
    renderRoute('/checkout', CheckoutPage, ['/login']);
    expect(await screen.findByRole('heading', { name: 'Starter pack' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Buy Starter pack' })).toBeNull();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Log in to buy' }));
    expect(await screen.findByRole('heading', { name: 'Page at /login' })).toBeTruthy();
  });

  it('says so and offers no Buy when the server has no payment provider', async () => {
    useSession.setState({ token: 'session-token' });
    mockApi([]);
    renderRoute('/checkout', CheckoutPage);
    expect(await screen.findByText('No payment provider is configured')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Buy Starter pack' })).toBeNull());
  });
});
