/**
 * Settings → Withdrawal addresses and the mailed link's page (DESIGN §11.2) against a mocked API: the empty
 * state; the list with each state's words; Add address (the body it sends, the step-up code with two-factor
 * on, then "check your e-mail"); Remove behind a confirmation; the "Allowed addresses only" switch (on at
 * once; off with a code, then "Stays on until …"); the confirm page's success and refusal.
 */
import {
  currenciesResponse,
  formatDate,
  type WithdrawAddress,
  type WithdrawAddressesResponse,
  withdrawAddressesResponse,
  withdrawAddressResponse,
} from '@starlight/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useSession } from '../../../lib/session.ts';
import { answers, refuse } from '../../../test/answer.ts';
import { testCurrency, testId, testUser } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderRoute, renderWithProviders } from '../../../test/TestProviders.tsx';
import { ConfirmWithdrawAddressPage } from './ConfirmWithdrawAddressPage.tsx';
import { WithdrawAddressesCard } from './WithdrawAddressesCard.tsx';

const credits = testCurrency(2, { ticker: 'CR', name: 'Credits', canWithdraw: true });
const gems = testCurrency(4, { ticker: 'GEM', name: 'Gems' });
const LATER = '2030-01-02T03:04:05.000Z';
const ADDRESS = '0xabcdef0123456789abcdef0123456789abcdef01';

function address(n: number, over: Partial<WithdrawAddress> = {}): WithdrawAddress {
  return {
    _id: testId(n),
    currencyId: 2,
    walletAddress: ADDRESS,
    label: `Wallet ${n}`,
    state: 'active',
    activeFrom: '2026-11-02T00:00:00.000Z',
    createdAt: '2026-11-01T00:00:00.000Z',
    ...over,
  };
}

function listOf(over: Partial<WithdrawAddressesResponse> = {}): WithdrawAddressesResponse {
  return {
    addresses: [],
    allowListOnly: false,
    allowListOffFrom: null,
    withdrawalsPausedUntil: null,
    message: 'OK',
    ...over,
  };
}

/** Serves the list (a function of the calls so far) and records bodies sent to `path`. */
function serveList(list: () => WithdrawAddressesResponse) {
  server.use(answers.post('/bank/withdrawAddresses', withdrawAddressesResponse, () => list()));
}

function record<S extends z.ZodType>(path: string, schema: S, answer: () => z.input<S> | ReturnType<typeof refuse>) {
  const sent: unknown[] = [];
  server.use(
    answers.post(path, schema, async ({ request }) => {
      sent.push(await request.json());
      return answer();
    }),
  );
  return sent;
}

beforeEach(() => {
  useSession.setState({ user: testUser('alice'), token: 'session-token' });
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [credits, gems], message: 'OK' })),
  );
});

const card = () => screen.getByRole('region', { name: 'Withdrawal addresses' });

describe('Settings → Withdrawal addresses', () => {
  it('says when there are none yet', async () => {
    serveList(() => listOf());
    renderWithProviders(<WithdrawAddressesCard />);
    expect(await screen.findByTestId('withdraw-addresses-empty')).toHaveTextContent(
      'You have no withdrawal addresses yet. Press Add address to save one.',
    );
  });

  it('shows label, ticker, whole address and state of each', async () => {
    serveList(() =>
      listOf({
        addresses: [
          address(1, { label: 'Mailed', state: 'unconfirmed', activeFrom: null }),
          address(2, { label: 'Waiting', state: 'waiting', activeFrom: LATER }),
          address(3, { label: 'Ready' }),
        ],
      }),
    );
    renderWithProviders(<WithdrawAddressesCard />);
    const list = await screen.findByRole('list', { name: 'Withdrawal addresses' });
    const row = (name: string) => within(list).getByRole('listitem', { name });
    await waitFor(() => expect(row('Mailed')).toHaveTextContent('CR'));
    expect(row('Mailed')).toHaveTextContent('Confirm by e-mail');
    expect(row('Mailed')).toHaveTextContent(ADDRESS);
    expect(row('Waiting')).toHaveTextContent(`Usable from ${formatDate(LATER)}`);
    expect(row('Ready')).toHaveTextContent('Active');
  });

  it('adds an address with the two-factor code and says to check the e-mail', async () => {
    useSession.setState({ user: testUser('alice', { mfa: { totp: true, passkeys: 0 } }) });
    serveList(() => listOf());
    const sent = record('/bank/addWithdrawAddress', withdrawAddressResponse, () => ({
      address: address(1, { state: 'unconfirmed', activeFrom: null, label: 'Cold wallet' }),
      message: 'We sent a link to alice@example.test to confirm the address',
    }));
    renderWithProviders(<WithdrawAddressesCard />);
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Add address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add withdrawal address' });
    const box = within(dialog).getByRole('combobox', { name: /Currency/ });
    await u.click(box);
    const options = await screen.findByRole('listbox', { hidden: true, name: /Currency/ });
    // Only currencies that allow withdrawals are offered.
    expect(within(options).queryByRole('option', { name: 'Gems (GEM)', hidden: true })).toBeNull();
    await u.click(within(options).getByRole('option', { name: 'Credits (CR)', hidden: true }));
    await u.type(within(dialog).getByRole('textbox', { name: /Wallet address/ }), 'short');
    expect(within(dialog).getByText('A wallet address is 10 to 50 characters')).toBeInTheDocument();
    await u.clear(within(dialog).getByRole('textbox', { name: /Wallet address/ }));
    await u.type(within(dialog).getByRole('textbox', { name: /Wallet address/ }), ADDRESS);
    await u.type(within(dialog).getByRole('textbox', { name: /Label/ }), 'Cold wallet');
    const add = within(dialog).getByRole('button', { name: 'Add address' });
    expect(add).toBeDisabled();
    await u.type(within(dialog).getByRole('textbox', { name: /Two-factor code/ }), '123456');
    await u.click(add);
    const done = await screen.findByRole('dialog', { name: 'Check your e-mail' });
    expect(done).toHaveTextContent('We sent a link to alice@example.test to confirm the address');
    expect(done).toHaveTextContent('Open the link in that e-mail to confirm the address');
    expect(sent).toEqual([{ currencyId: 2, walletAddress: ADDRESS, label: 'Cold wallet', mfaCode: '123456' }]);
  });

  it("shows the server's refusal in the dialog as it is", async () => {
    serveList(() => listOf());
    record('/bank/addWithdrawAddress', withdrawAddressResponse, () =>
      refuse(409, 'This address is already in your withdrawal addresses'),
    );
    renderWithProviders(<WithdrawAddressesCard />);
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Add address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add withdrawal address' });
    await u.click(within(dialog).getByRole('combobox', { name: /Currency/ }));
    const options = await screen.findByRole('listbox', { hidden: true, name: /Currency/ });
    await u.click(within(options).getByRole('option', { name: 'Credits (CR)', hidden: true }));
    await u.type(within(dialog).getByRole('textbox', { name: /Wallet address/ }), ADDRESS);
    await u.type(within(dialog).getByRole('textbox', { name: /Label/ }), 'Again');
    // No second factor: no code field.
    expect(within(dialog).queryByRole('textbox', { name: /Two-factor code/ })).toBeNull();
    await u.click(within(dialog).getByRole('button', { name: 'Add address' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This address is already in your withdrawal addresses',
    );
  });

  it('removes an address only after the confirmation', async () => {
    let removed = false;
    serveList(() => listOf({ addresses: removed ? [] : [address(1, { label: 'Old wallet' })] }));
    const sent = record('/bank/removeWithdrawAddress', z.object({ message: z.string() }), () => {
      removed = true;
      return { message: 'Withdrawal address Old wallet removed' };
    });
    renderWithProviders(<WithdrawAddressesCard />);
    const u = userEvent.setup();
    const row = await screen.findByRole('listitem', { name: 'Old wallet' });
    await u.click(within(row).getByRole('button', { name: 'Remove' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove withdrawal address' });
    await u.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(sent).toEqual([]);
    await u.click(within(row).getByRole('button', { name: 'Remove' }));
    await u.click(
      within(await screen.findByRole('dialog', { name: 'Remove withdrawal address' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    expect(await screen.findByText('Withdrawal address Old wallet removed')).toBeInTheDocument();
    expect(sent).toEqual([{ _id: testId(1) }]);
    expect(await screen.findByTestId('withdraw-addresses-empty')).toBeInTheDocument();
  });

  it('turns the switch on at once, and off with a code: it then stays on until the hold ends', async () => {
    useSession.setState({ user: testUser('alice', { mfa: { totp: true, passkeys: 0 } }) });
    serveList(() => listOf({ addresses: [address(1)] }));
    let calls = 0;
    const sent = record('/bank/setAllowListOnly', withdrawAddressesResponse, () =>
      ++calls === 1
        ? listOf({ addresses: [address(1)], allowListOnly: true, message: 'Withdrawals go only to your addresses' })
        : listOf({
            addresses: [address(1)],
            allowListOnly: true,
            allowListOffFrom: LATER,
            message: 'Allowed addresses only turns off later',
          }),
    );
    renderWithProviders(<WithdrawAddressesCard />);
    const u = userEvent.setup();
    const toggle = await within(card()).findByRole('switch', { name: /Allowed addresses only/ });
    expect(toggle).not.toBeChecked();
    await u.click(toggle);
    expect(await screen.findByText('Withdrawals go only to your addresses')).toBeInTheDocument();
    await waitFor(() => expect(toggle).toBeChecked());
    expect(sent).toEqual([{ on: true }]);

    await u.click(toggle);
    const dialog = await screen.findByRole('dialog', { name: 'Turn off allowed addresses only' });
    await u.type(within(dialog).getByRole('textbox', { name: /Two-factor code/ }), '654321');
    await u.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByTestId('allow-list-off-from')).toHaveTextContent(`Stays on until ${formatDate(LATER)}`);
    expect(sent[1]).toEqual({ on: false, mfaCode: '654321' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toggle).not.toBeChecked();
  });

  it('says why it cannot load', async () => {
    server.use(answers.post('/bank/withdrawAddresses', withdrawAddressesResponse, () => refuse(403, 'Forbidden')));
    renderWithProviders(<WithdrawAddressesCard />);
    expect(await within(card()).findByRole('alert')).toHaveTextContent('Forbidden');
  });
});

describe('the mailed link /withdrawaddress/{token}', () => {
  const token = 'a'.repeat(64);

  it('confirms as it opens and says from when the address is usable', async () => {
    const sent = record('/bank/confirmWithdrawAddress', withdrawAddressResponse, () => ({
      address: address(1, { label: 'Cold wallet', state: 'waiting', activeFrom: LATER }),
      message: 'Withdrawal address confirmed',
    }));
    renderRoute('/withdrawaddress/$token', ConfirmWithdrawAddressPage, ['/userconfig'], `/withdrawaddress/${token}`);
    expect(await screen.findByText('Withdrawal address confirmed')).toBeInTheDocument();
    expect(screen.getByTestId('usable-from')).toHaveTextContent(`You can withdraw to it from ${formatDate(LATER)}.`);
    expect(sent).toEqual([{ token }]);
    const link = screen.getByRole('link', { name: 'Go to my withdrawal addresses' });
    expect(link).toHaveAttribute('href', '/userconfig#withdrawal-addresses');
  });

  it("shows the server's refusal with the way to Settings", async () => {
    record('/bank/confirmWithdrawAddress', withdrawAddressResponse, () =>
      refuse(400, 'This link is invalid or has expired'),
    );
    renderRoute('/withdrawaddress/$token', ConfirmWithdrawAddressPage, ['/userconfig'], `/withdrawaddress/${token}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is invalid or has expired');
    expect(screen.getByRole('link', { name: 'Go to my withdrawal addresses' })).toBeInTheDocument();
  });
});
