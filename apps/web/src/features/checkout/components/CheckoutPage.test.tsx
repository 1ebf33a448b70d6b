/**
 * /checkout, Buy Credits (SPEC §2), as a route against a mocked API: the packages on sale with their
 * price, the providers the server offers, buying one (the request, the toast, the 5-second notice with
 * "Go now" that sends the member to the payment page), a signed-out visitor's way to log in, and a server
 * with no provider.
 */
import { buyPackageResponse, currenciesResponse, type ProviderId, packagesResponse } from '@starlight/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { answers } from '../../../test/answer.ts';
import { testCheckout, testCurrency, testPackage } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderRoute } from '../../../test/TestProviders.tsx';
import { CheckoutPage } from './CheckoutPage.tsx';

const credits = testCurrency(3, { ticker: 'CR', name: 'Credits' });
const starter = testPackage();

/** The API: the package list with `providers`, the currencies, and what buyPackage receives. */
function mockApi(providers: ProviderId[]) {
  const bought: unknown[] = [];
  server.use(
    answers.get('/checkout/packages/fetch', packagesResponse, () => ({
      packages: [starter],
      providers,
      message: 'OK',
    })),
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [credits], message: 'OK' })),
    answers.post('/checkout/buyPackage', buyPackageResponse, async ({ request }) => {
      bought.push(await request.json());
      return {
        link: '/checkout/sandbox/c1/pay',
        checkout: testCheckout({ _id: starter._id, name: starter.name, cost: starter.cost }),
        message: 'Checkout created, you will be redirected to the payment page',
      };
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
    expect(await screen.findByRole('heading', { name: 'Starter pack' })).toBeInTheDocument();
    expect(screen.getByText('$4.99')).toBeInTheDocument();
    expect(await screen.findByText('500.00 CR')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByText('Crypto'));
    await user.click(screen.getByRole('button', { name: 'Buy Starter pack' }));
    expect(await screen.findByText('Checkout created, you will be redirected to the payment page')).toBeInTheDocument();
    expect(bought).toEqual([{ packageId: starter._id, providerId: 1 }]);
    expect(screen.getByText('Redirecting to the payment provider')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Go now' }));
    expect(await screen.findByRole('heading', { name: 'Page at /checkout/sandbox/c1/pay' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/checkout/sandbox/c1/pay');
  });

  it('offers a signed-out visitor the way to log in instead of Buy', async () => {
    mockApi([2]);
    renderRoute('/checkout', CheckoutPage, ['/login']);
    expect(await screen.findByRole('heading', { name: 'Starter pack' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy Starter pack' })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Log in to buy' }));
    expect(await screen.findByRole('heading', { name: 'Page at /login' })).toBeInTheDocument();
  });

  it('says so and offers no Buy when the server has no payment provider', async () => {
    useSession.setState({ token: 'session-token' });
    mockApi([]);
    renderRoute('/checkout', CheckoutPage);
    expect(await screen.findByText('No payment provider is configured')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Buy Starter pack' })).not.toBeInTheDocument());
  });
});
