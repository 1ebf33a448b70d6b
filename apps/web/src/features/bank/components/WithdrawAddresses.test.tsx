/**
 * The Withdraw popup with the member's withdrawal addresses (DESIGN §11.2), against a mocked API: during a
 * security hold it says until when before anything is typed and cannot be sent; with "Allowed addresses
 * only" in force it offers only the active saved addresses of the chosen currency (no typing) and a way to
 * add one; with the switch off a saved address fills the field and typing another stays possible.
 */
import { notifications } from '@mantine/notifications';
import {
  currenciesResponse,
  formatDate,
  type WithdrawAddress,
  type WithdrawAddressesResponse,
  withdrawAddressesResponse,
  withdrawResponse,
} from '@starlight/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { answers } from '../../../test/answer.ts';
import { testCurrency, testId, testSettlement } from '../../../test/fixtures.ts';
import { signInMember } from '../../../test/money-retry.ts';
import { server } from '../../../test/setup.ts';
import { renderRoute, renderWithProviders } from '../../../test/TestProviders.tsx';
import { SettlementModal } from './SettlementModal.tsx';

const credits = testCurrency(2, { ticker: 'CR', name: 'Credits', canWithdraw: true });
const gems = testCurrency(4, { ticker: 'GEM', name: 'Gems', canWithdraw: true });
const COLD = '0xc01d000000000000000000000000000000000001';
const OTHER = '0x0e4e000000000000000000000000000000000002';

function address(n: number, over: Partial<WithdrawAddress>): WithdrawAddress {
  return {
    _id: testId(n),
    currencyId: 2,
    walletAddress: COLD,
    label: `Wallet ${n}`,
    state: 'active',
    activeFrom: '2026-11-02T00:00:00.000Z',
    createdAt: '2026-11-01T00:00:00.000Z',
    ...over,
  };
}

const saved = [
  address(1, { label: 'Cold wallet' }),
  address(2, { label: 'Not yet', walletAddress: OTHER, state: 'waiting', activeFrom: '2030-01-01T00:00:00.000Z' }),
  address(3, { label: 'Gem wallet', walletAddress: OTHER, currencyId: 4 }),
];

function serve(over: Partial<WithdrawAddressesResponse>) {
  server.use(
    answers.post('/bank/withdrawAddresses', withdrawAddressesResponse, () => ({
      addresses: saved,
      allowListOnly: false,
      allowListOffFrom: null,
      withdrawalsPausedUntil: null,
      message: 'OK',
      ...over,
    })),
  );
}

/** Records the withdraw bodies; answers a success. */
function serveWithdraw() {
  const sent: unknown[] = [];
  const user = signInMember([{ currencyId: 2, amount: '100.00' }]);
  server.use(
    answers.post('/bank/withdraw', withdrawResponse, async ({ request }) => {
      sent.push(await request.json());
      return {
        senderUser: user,
        settlement: testSettlement({ user: { nickname: 'alice' } }),
        message: 'Withdrawal of 10.00 CR requested',
      };
    }),
  );
  return sent;
}

beforeEach(() => {
  notifications.clean();
  signInMember([{ currencyId: 2, amount: '100.00' }]);
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [credits, gems], message: 'OK' })),
  );
});

async function pickIn(u: ReturnType<typeof userEvent.setup>, label: RegExp, option: string) {
  await u.click(await screen.findByRole('combobox', { name: label }));
  const list = await screen.findByRole('listbox', { hidden: true, name: label });
  await u.click(within(list).getByRole('option', { name: option, hidden: true }));
}

describe('the Withdraw popup and the withdrawal addresses', () => {
  it('says withdrawals are paused until when, before anything is typed, and cannot be sent', async () => {
    const until = '2030-05-06T07:08:09.000Z';
    serve({ withdrawalsPausedUntil: until });
    renderWithProviders(<SettlementModal kind="withdrawal" opened onClose={() => {}} currencyId={2} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `Withdrawals are paused until ${formatDate(until)} after a change to your account's security`,
    );
    const u = userEvent.setup();
    await u.type(screen.getByRole('textbox', { name: /Amount/ }), '10');
    await u.type(screen.getByRole('textbox', { name: /Wallet address/ }), COLD);
    expect(screen.getByRole('button', { name: 'Withdraw' })).toBeDisabled();
  });

  it('with allowed addresses only, offers only the active addresses of the currency and sends the one picked', async () => {
    const sent = serveWithdraw();
    serve({ allowListOnly: true });
    renderRoute('/userbank', () => <SettlementModal kind="withdrawal" opened onClose={() => {}} />, ['/userconfig']);
    const u = userEvent.setup();
    await pickIn(u, /Currency/, 'Credits (CR)');
    expect(screen.queryByRole('textbox', { name: /Wallet address/ })).toBeNull();
    expect(screen.getByTestId('allow-list-hint')).toHaveTextContent(
      'Allowed addresses only is on: you can withdraw only to an active address from your list.',
    );
    expect(screen.getByRole('link', { name: 'Add an address' })).toHaveAttribute(
      'href',
      '/userconfig#withdrawal-addresses',
    );
    await u.type(screen.getByRole('textbox', { name: /Amount/ }), '10');
    expect(screen.getByRole('button', { name: 'Withdraw' })).toBeDisabled();
    await u.click(screen.getByRole('combobox', { name: /Saved address/ }));
    const options = await screen.findByRole('listbox', { hidden: true, name: /Saved address/ });
    // Neither the address still waiting nor another currency's is offered.
    expect(
      within(options)
        .getAllByRole('option', { hidden: true })
        .map((o) => o.textContent),
    ).toEqual(['Cold wallet (0xc01d00…000001)']);
    await u.click(within(options).getByRole('option', { name: /Cold wallet/, hidden: true }));
    expect(screen.getByText(COLD)).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('Withdrawal of 10.00 CR requested')).toBeInTheDocument();
    expect(sent).toEqual([{ currencyId: 2, amount: '10', walletAddress: COLD }]);
  });

  it('with the switch turned off but still on until later, still offers only saved addresses', async () => {
    serve({ allowListOnly: false, allowListOffFrom: '2030-01-01T00:00:00.000Z' });
    renderRoute('/userbank', () => <SettlementModal kind="withdrawal" opened onClose={() => {}} currencyId={2} />, [
      '/userconfig',
    ]);
    expect(await screen.findByTestId('allow-list-hint')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /Wallet address/ })).toBeNull();
  });

  it('with the switch off, a saved address fills the field and another can be typed', async () => {
    const sent = serveWithdraw();
    serve({});
    renderWithProviders(<SettlementModal kind="withdrawal" opened onClose={() => {}} currencyId={2} />);
    const u = userEvent.setup();
    await u.type(screen.getByRole('textbox', { name: /Amount/ }), '10');
    await waitFor(() => expect(screen.getByRole('combobox', { name: /Saved address/ })).toBeEnabled());
    await pickIn(u, /Saved address/, 'Cold wallet (0xc01d00…000001)');
    expect(screen.getByRole('textbox', { name: /Wallet address/ })).toHaveValue(COLD);
    await u.clear(screen.getByRole('textbox', { name: /Wallet address/ }));
    await u.type(screen.getByRole('textbox', { name: /Wallet address/ }), OTHER);
    expect(screen.getByRole('combobox', { name: /Saved address/ })).toHaveValue('');
    await u.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('Withdrawal of 10.00 CR requested')).toBeInTheDocument();
    expect(sent).toEqual([{ currencyId: 2, amount: '10', walletAddress: OTHER }]);
  });
});
