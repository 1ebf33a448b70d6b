/**
 * A member's money calls of the bank, retried after a lost answer (DESIGN §3): the first Send reaches the
 * server and commits, the browser sees 'Network Error'; Send again carries the same Idempotency-Key, so
 * the server moves the money once, and the popup shows the success. After a success, the next
 * submission is a new one with a key of its own. Transfer, Withdraw, Claim deposit, Distribute.
 */

import { notifications } from '@mantine/notifications';
import {
  currenciesResponse,
  depositResponse,
  distributeCurrencyResponse,
  p2pTransferResponse,
  type User,
  withdrawAddressesResponse,
  withdrawResponse,
} from '@starlight/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { answers } from '../../../test/answer.ts';
import { testCurrency, testSettlement } from '../../../test/fixtures.ts';
import {
  expectNoErrorToast,
  expectRetriedOnce,
  pressTwice,
  serveMoneyMoving,
  signInMember,
} from '../../../test/money-retry.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { DistributeModal } from './DistributeModal.tsx';
import { SettlementModal } from './SettlementModal.tsx';
import { TransferModal } from './TransferModal.tsx';

const credits = testCurrency(2, { ticker: 'CR', name: 'Credits', canWithdraw: true, canDeposit: true });
const gems = testCurrency(4, { ticker: 'GEM', name: 'Gems', canTransfer: false });
const settlement = testSettlement({ user: { nickname: 'alice' } });

let user: User;
beforeEach(() => {
  // The toasts of the last test are still in the store: start from none.
  notifications.clean();
  user = signInMember([{ currencyId: 2, amount: '100.00' }]);
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [credits, gems], message: 'OK' })),
  );
});

/** Picks `option` in the Mantine Select labelled `label` (its options count as hidden in jsdom). */
async function pick(u: ReturnType<typeof userEvent.setup>, label: RegExp, option: string) {
  const box = screen.getByRole('combobox', { name: label });
  await u.click(box);
  // Every Select keeps its options in the page: look in the one this combobox opened.
  const list = await screen.findByRole('listbox', { hidden: true, name: label });
  expect(box.getAttribute('aria-controls')).toBe(list.id);
  await u.click(within(list).getByRole('option', { name: option, hidden: true }));
}

/** Presses `button` of the popup, sees the lost answer, presses it again and sees `success`. */
const sendTwice = (u: ReturnType<typeof userEvent.setup>, button: string, success: string) =>
  pressTwice(() => u.click(screen.getByRole('button', { name: button })), success);

describe("the bank's money calls, retried after a lost answer", () => {
  it('Transfer: sent again, pays once; the next transfer after the success gets a new key', async () => {
    const ledger = serveMoneyMoving('/bank/p2pTransfer', p2pTransferResponse, {
      senderUser: user,
      message: 'Sent 10.00 CR to bob',
    });
    const onClose = vi.fn();
    // Opened from the Credits row: the currency is chosen, and chosen again after the popup resets.
    renderWithProviders(<TransferModal opened onClose={onClose} currencyId={2} />);
    const u = userEvent.setup();
    const fill = async () => {
      await u.type(screen.getByRole('textbox', { name: /Recipient nickname/ }), 'bob');
      await u.type(screen.getByRole('textbox', { name: /Amount/ }), '10');
    };
    await fill();
    await sendTwice(u, 'Send', 'Sent 10.00 CR to bob');
    expectRetriedOnce(ledger);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));

    // The same transfer again, on purpose: a new submission, so a new key and a second movement.
    await fill();
    await u.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
    expect(ledger.keys).toHaveLength(3);
    expect(ledger.bodies[2]).toEqual(ledger.bodies[0]);
    expect(ledger.keys[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ledger.keys[2]).not.toBe(ledger.keys[0]);
    expect(ledger.movements).toBe(2);
  });

  it('Transfer: a changed amount after the lost answer is a new submission with a new key', async () => {
    const ledger = serveMoneyMoving('/bank/p2pTransfer', p2pTransferResponse, {
      senderUser: user,
      message: 'Sent 12.00 CR to bob',
    });
    renderWithProviders(<TransferModal opened onClose={() => {}} />);
    const u = userEvent.setup();
    await u.type(screen.getByRole('textbox', { name: /Recipient nickname/ }), 'bob');
    await pick(u, /Currency/, 'Credits (CR)');
    await u.type(screen.getByRole('textbox', { name: /Amount/ }), '10');
    await u.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Network Error')).toBeTruthy();
    await u.clear(screen.getByRole('textbox', { name: /Amount/ }));
    await u.type(screen.getByRole('textbox', { name: /Amount/ }), '12');
    await u.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Sent 12.00 CR to bob')).toBeTruthy();
    expect(ledger.keys[1]).not.toBe(ledger.keys[0]);
    // The form's submission went through: its earlier failure's toast closes.
    await expectNoErrorToast();
  });

  it('Withdraw: sent again, debits once', async () => {
    const ledger = serveMoneyMoving('/bank/withdraw', withdrawResponse, {
      senderUser: user,
      settlement,
      message: 'Withdrawal of 10.00 CR requested',
    });
    server.use(
      answers.post('/bank/withdrawAddresses', withdrawAddressesResponse, () => ({
        addresses: [],
        allowListOnly: false,
        allowListOffFrom: null,
        withdrawalsPausedUntil: null,
        message: 'OK',
      })),
    );
    renderWithProviders(<SettlementModal kind="withdrawal" opened onClose={() => {}} />);
    const u = userEvent.setup();
    await pick(u, /Currency/, 'Credits (CR)');
    await u.type(screen.getByRole('textbox', { name: /Amount/ }), '10');
    await u.type(screen.getByRole('textbox', { name: /Wallet address/ }), '0x1234567890abcdef');
    await sendTwice(u, 'Withdraw', 'Withdrawal of 10.00 CR requested');
    expectRetriedOnce(ledger);
  });

  it('Claim deposit: sent again, claims once', async () => {
    const ledger = serveMoneyMoving('/bank/deposit', depositResponse, {
      settlement: { ...settlement, kind: 'deposit', reference: 'tx-1' },
      message: 'Deposit claimed',
    });
    renderWithProviders(<SettlementModal kind="deposit" opened onClose={() => {}} />);
    const u = userEvent.setup();
    await pick(u, /Currency/, 'Credits (CR)');
    await u.type(screen.getByRole('textbox', { name: /Amount/ }), '10');
    await u.type(screen.getByRole('textbox', { name: /Wallet address/ }), '0x1234567890abcdef');
    await u.type(screen.getByRole('textbox', { name: /Transaction reference/ }), 'tx-1');
    await sendTwice(u, 'Claim deposit', 'Deposit claimed');
    expectRetriedOnce(ledger);
  });

  it('Distribute: sent again, shares once', async () => {
    const ledger = serveMoneyMoving('/bank/distributeCurrency', distributeCurrencyResponse, {
      senderUser: user,
      recipients: 1,
      distributed: '10.00',
      message: 'Distributed 10.00 CR',
    });
    renderWithProviders(<DistributeModal opened onClose={() => {}} />);
    const u = userEvent.setup();
    await pick(u, /Currency to distribute/, 'Credits (CR)');
    await u.type(screen.getByRole('textbox', { name: /Amount/ }), '10');
    await pick(u, /Holders of/, 'Gems (GEM)');
    await sendTwice(u, 'Distribute', 'Distributed 10.00 CR');
    expectRetriedOnce(ledger);
  });
});
