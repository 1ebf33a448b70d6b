/**
 * The admin's money calls of the bank, retried after a lost answer (DESIGN §3): Mint and Burn in their
 * dialogs, and Approve on a settlement's row. The first press reaches the server and commits, the
 * browser sees 'Network Error'; pressing again sends the same Idempotency-Key, so the server moves the
 * money once, and the dialog shows the success.
 */
import { notifications } from '@mantine/notifications';
import { currenciesResponse, getSettlementsResponse, messageResponse, settleResponse } from '@starlight/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { answers } from '../../../test/answer.ts';
import { testCurrency, testSettlement } from '../../../test/fixtures.ts';
import { expectRetriedOnce, pressTwice, serveMoneyMoving, signInMember } from '../../../test/money-retry.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { SettlementsPanel } from './SettlementsPanel.tsx';
import { SupplyModal } from './SupplyModal.tsx';

const credits = testCurrency(2, { ticker: 'CR', name: 'Credits' });
const pending = testSettlement();

beforeEach(() => {
  // The toasts of the last test are still in the store: start from none.
  notifications.clean();
  signInMember([], 'admin');
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [credits], message: 'OK' })),
    answers.post('/bank/getSettlements', getSettlementsResponse, () => ({
      settlements: [pending],
      total: 1,
      totalCapped: false,
      message: 'OK',
    })),
  );
});

describe("the admin's money calls, retried after a lost answer", () => {
  for (const action of ['mint', 'burn'] as const) {
    it(`${action === 'mint' ? 'Mint' : 'Burn'}: sent again, changes the supply once`, async () => {
      const message = `${action === 'mint' ? 'Minted' : 'Burned'} 10.00 CR`;
      const ledger = serveMoneyMoving(`/bank/${action}`, messageResponse, { message });
      const onClose = vi.fn();
      renderWithProviders(<SupplyModal action={action} opened onClose={onClose} />);
      const u = userEvent.setup();
      await u.type(screen.getByTestId(`${action}-recipient`), 'bob');
      await waitFor(() => expect(screen.getByRole('option', { name: 'CR · Credits' })).toBeTruthy());
      await u.selectOptions(screen.getByTestId(`${action}-currency`), '2');
      await u.type(screen.getByTestId(`${action}-amount`), '10');
      await u.type(screen.getByTestId(`${action}-note`), 'event prize');
      await pressTwice(() => u.click(screen.getByTestId(`${action}-submit`)), message);
      expectRetriedOnce(ledger);
      expect(ledger.bodies[0]).toEqual({ recipientNickName: 'bob', currencyId: 2, amount: '10', note: 'event prize' });
      await waitFor(() => expect(onClose).toHaveBeenCalled());
    });
  }

  it("Approve on a settlement's row: sent again, settles once", async () => {
    const ledger = serveMoneyMoving('/bank/settle', settleResponse, {
      settlement: { ...pending, state: 'approved' },
      message: 'Withdrawal approved',
    });
    renderWithProviders(<SettlementsPanel />);
    const u = userEvent.setup();
    const confirm = async () => {
      // The row's Approve opens the dialog (again, if the failure closed nothing), whose Approve sends.
      if (!screen.queryByRole('dialog')) await u.click(await screen.findByRole('button', { name: 'Approve' }));
      const dialog = await screen.findByRole('dialog', { name: 'Approve withdrawal' });
      await u.click(within(dialog).getByRole('button', { name: 'Approve' }));
    };
    await pressTwice(confirm, 'Withdrawal approved');
    expectRetriedOnce(ledger);
    expect(ledger.bodies[0]).toEqual({ settlementId: pending._id, approve: true, note: '' });
  });
});
