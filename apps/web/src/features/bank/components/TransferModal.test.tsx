/**
 * The Transfer popup (SPEC §2) as a member uses it, against a mocked API: the tax shown before sending,
 * the request it sends (with an Idempotency-Key), the server's message in a toast, and a refusal or a
 * missing field that keeps the popup open.
 */
import { type Currency, currenciesResponse, meResponse, p2pTransferResponse } from '@starlight/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { testCurrency, testUser } from '../../../test/fixtures.ts';
import { signInMember } from '../../../test/money-retry.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { TransferModal } from './TransferModal.tsx';

const credits = testCurrency(2, { ticker: 'CR', name: 'Credits', transferTax: '0.05' });
const locked: Currency = { ...credits, currencyId: 3, ticker: 'LCK', name: 'Locked', canTransfer: false };

const transferred = () => ({ senderUser: testUser('alice'), message: 'Transfer complete' });

/** The API's currency list, and what the transfer endpoint receives (body and headers). */
function mockApi(answer: () => AnswerOf<typeof p2pTransferResponse>) {
  const sent: Array<{ body: unknown; idempotencyKey: string | null }> = [];
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [credits, locked], message: 'OK' })),
    answers.post('/bank/p2pTransfer', p2pTransferResponse, async ({ request }) => {
      sent.push({ body: await request.json(), idempotencyKey: request.headers.get('idempotency-key') });
      return answer();
    }),
  );
  return sent;
}

async function fillIn(recipient: string, amount: string) {
  const user = userEvent.setup();
  if (recipient) await user.type(screen.getByRole('textbox', { name: /Recipient nickname/ }), recipient);
  await user.click(screen.getByRole('combobox', { name: /Currency/ }));
  // Mantine's dropdown never finishes its opening transition in jsdom: its options count as hidden.
  const option = await screen.findByRole('option', { name: 'Credits (CR)', hidden: true });
  // Only currencies that allow transfers are offered.
  expect(screen.queryByRole('option', { name: 'Locked (LCK)', hidden: true })).not.toBeInTheDocument();
  await user.click(option);
  await user.type(screen.getByRole('textbox', { name: /Amount/ }), amount);
  return user;
}

describe('TransferModal', () => {
  // A transfer's answer stores the sender (with their balances) in the session: each test starts signed out.
  beforeEach(() => useSession.getState().clear());

  it('shows the tax before sending, sends the transfer once with an Idempotency-Key, and toasts the answer', async () => {
    const sent = mockApi(transferred);
    const onClose = vi.fn();
    renderWithProviders(<TransferModal opened onClose={onClose} />);
    const user = await fillIn('bob', '10');
    expect(
      await screen.findByText(
        'Transfer tax 5%: 0.50 CR (rounded up to the smallest unit). The recipient receives 9.50 CR.',
      ),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Transfer complete')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ recipientNickName: 'bob', currencyId: 2, amount: '10' });
    expect(sent[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("shows the server's refusal and stays open", async () => {
    mockApi(() => refuse(409, 'Insufficient funds'));
    const onClose = vi.fn();
    renderWithProviders(<TransferModal opened onClose={onClose} />);
    const user = await fillIn('bob', '10');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Insufficient funds')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Transfer' })).toBeInTheDocument();
  });

  it('sends nothing while the recipient is missing, and says so at the field', async () => {
    const sent = mockApi(transferred);
    renderWithProviders(<TransferModal opened onClose={() => {}} />);
    const user = await fillIn('', '10');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const field = screen.getByRole('textbox', { name: /Recipient nickname/ });
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(sent).toHaveLength(0);
  });

  it('refuses an amount whose tax would take it all, before anything is sent', async () => {
    const sent = mockApi(transferred);
    renderWithProviders(<TransferModal opened onClose={() => {}} />);
    await fillIn('bob', '0.01');
    expect(
      await screen.findByText('Amount too small: the 5% transfer tax (0.01 CR) would leave the recipient nothing.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(sent).toHaveLength(0);
  });

  it('shows the balance with a Max, says a wrong amount in words and keeps Send off until it can go', async () => {
    const member = signInMember([{ currencyId: 2, amount: '900' }]);
    const sent = mockApi(transferred);
    server.use(answers.get('/user/me', meResponse, () => ({ user: member, message: 'OK' })));
    renderWithProviders(<TransferModal opened onClose={() => {}} />);
    const user = await fillIn('bob', '999999999');
    expect(await screen.findByText('Available: 900.00 CR')).toBeInTheDocument();
    expect(screen.getByText('More than you have: your balance is 900.00 CR')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    const amount = screen.getByRole('textbox', { name: /Amount/ });
    await user.clear(amount);
    await user.type(amount, '12.345');
    expect(await screen.findByText('Amount can have at most 2 decimals')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: /^Max/ }));
    expect(amount).toHaveValue('900.00');
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.body).toMatchObject({ amount: '900.00' });
  });
});
