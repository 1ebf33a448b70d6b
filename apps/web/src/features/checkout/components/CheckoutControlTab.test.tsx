/**
 * The Admin Console's Checkout Control (SPEC §2) against a mocked API: a card per package with its cost,
 * Credits, items and whether it is on sale; Publish (once, then 'Published' and disabled) and Set Active
 * (the opposite of the current value, SPEC §4) sending the package's id; and 'No Packages'.
 */
import {
  type CheckoutPackage,
  currenciesResponse,
  PROVIDER,
  packageResponse,
  packagesResponse,
} from '@starlight/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answers } from '../../../test/answer.ts';
import { testCurrency, testId, testPackage } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { CheckoutControlTab } from './CheckoutControlTab.tsx';

const draft = testPackage({ _id: testId(0x81), published: false });
const onSale: CheckoutPackage = { ...draft, _id: testId(0x82), name: 'Big pack', items: [], published: true };

/** Serves `packages`; what publish and setactive receive is returned, by path. */
function mockPackages(packages: CheckoutPackage[]) {
  const sent: Array<{ path: string; body: unknown }> = [];
  const action = (path: string) =>
    answers.post(path, packageResponse, async ({ request }) => {
      sent.push({ path, body: await request.json() });
      return { package: draft, message: 'Package updated' };
    });
  server.use(
    answers.get('/checkout/packages/fetch', packagesResponse, () => ({
      packages,
      providers: [PROVIDER.Crypto],
      message: 'OK',
    })),
    answers.get('/bank/currencies', currenciesResponse, () => ({
      currencies: [testCurrency(3, { ticker: 'CR', name: 'Credits' })],
      message: 'OK',
    })),
    action('/checkout/packages/publish'),
    action('/checkout/packages/setactive'),
  );
  return sent;
}

describe('Checkout Control', () => {
  it('shows each package with what it sells and whether members can buy it', async () => {
    mockPackages([draft, onSale]);
    renderWithProviders(<CheckoutControlTab />);
    const starter = await screen.findByRole('listitem', { name: 'Starter pack' });
    expect(await within(starter).findByText(/500\.00 CR/)).toBeInTheDocument();
    expect(starter).toHaveTextContent('Cost: $4.99');
    expect(starter).toHaveTextContent('Items: 2 × Alpha synth chips');
    expect(within(starter).getByTestId('package-sale')).toHaveTextContent('Not on sale: publish it to sell it');
    const big = screen.getByRole('listitem', { name: 'Big pack' });
    expect(within(big).getByTestId('package-sale')).toHaveTextContent('On sale');
    expect(within(big).getByRole('button', { name: 'Big pack is published' })).toBeDisabled();
  });

  it("publishes a package, and sets it inactive with the opposite of its 'active'", async () => {
    const sent = mockPackages([draft]);
    renderWithProviders(<CheckoutControlTab />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Publish Starter pack' }));
    expect(await screen.findByText('Package updated')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Active · Deactivate Starter pack' }));
    await screen.findAllByText('Package updated');
    expect(sent).toEqual([
      { path: '/checkout/packages/publish', body: { objectId: draft._id } },
      { path: '/checkout/packages/setactive', body: { objectId: draft._id, flag: false } },
    ]);
  });

  it("says 'No Packages' when there are none", async () => {
    mockPackages([]);
    renderWithProviders(<CheckoutControlTab />);
    expect(await screen.findByText('No Packages')).toBeInTheDocument();
  });
});
