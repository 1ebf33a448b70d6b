/**
 * The Admin Console's Currency tab, Create Currency (SPEC §2, §5) against a mocked API: the field messages
 * before anything is sent, the request (tax percents divided by 100, SPEC §5; checkbox flags; empty
 * optional strings dropped), the answer toasted and the dialog closed, and a refusal kept in the dialog.
 */
import { type CreateCurrencyRequest, currenciesResponse, currencyResponse } from '@starlight/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { testCurrency } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { CreateCurrencyModal } from './CreateCurrencyModal.tsx';

/** Answers createCurrency with `answer`; the bodies it receives are returned. */
function mockCreate(answer: (body: CreateCurrencyRequest) => AnswerOf<typeof currencyResponse>) {
  const sent: unknown[] = [];
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [], message: 'OK' })),
    answers.post('/bank/createCurrency', currencyResponse, async ({ request }) => {
      const body = (await request.json()) as CreateCurrencyRequest;
      sent.push(body);
      return answer(body);
    }),
  );
  return sent;
}

async function fill(user: ReturnType<typeof userEvent.setup>, label: RegExp, text: string) {
  await user.click(screen.getByRole('textbox', { name: label }));
  await user.paste(text);
}

describe('Create Currency', () => {
  it("shows SPEC §5's messages in the fields' words and sends nothing", async () => {
    const sent = mockCreate(() => refuse(400, 'unused'));
    renderWithProviders(<CreateCurrencyModal opened onClose={() => {}} />);
    const user = userEvent.setup();
    await fill(user, /^Name/, 'X');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Ticker is required')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveAccessibleDescription(
      /Name contains an invalid value/,
    );
    expect(screen.queryByText(/"(ticker|name)"/)).toBeNull();
    expect(sent).toEqual([]);
  });

  it('sends taxes as fractions with the flags, drops empty fields, toasts the answer and closes', async () => {
    const sent = mockCreate((body) => ({
      currency: testCurrency(7, { ticker: body.ticker, name: body.name, transferTax: '0.025' }),
      message: 'Currency created',
    }));
    const onClose = vi.fn();
    renderWithProviders(<CreateCurrencyModal opened onClose={onClose} />);
    const user = userEvent.setup();
    await fill(user, /^Ticker/, 'GEM');
    await fill(user, /^Name/, 'Gemstone');
    await fill(user, /^Transfer tax/, '2.5');
    await user.click(screen.getByRole('checkbox', { name: 'Can deposit' }));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Currency created')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        ticker: 'GEM',
        name: 'Gemstone',
        precision: 2,
        canDeposit: true,
        canWithdraw: false,
        canTransfer: true,
        canMint: true,
        canBurn: true,
        isFrozen: false,
        transferTax: '0.025',
      },
    ]);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("keeps the server's refusal in the dialog", async () => {
    mockCreate(() => refuse(409, 'Ticker already exists'));
    const onClose = vi.fn();
    renderWithProviders(<CreateCurrencyModal opened onClose={onClose} />);
    const user = userEvent.setup();
    await fill(user, /^Ticker/, 'GEM');
    await fill(user, /^Name/, 'Gemstone');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Currency' });
    expect(await within(dialog).findByText('Ticker already exists')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it("shows the server's field messages in the fields' words, at the field, in the dialog and the toast", async () => {
    mockCreate(() => refuse(400, '"name" is required', [{ field: 'name', message: '"name" is required' }]));
    renderWithProviders(<CreateCurrencyModal opened onClose={() => {}} />);
    const user = userEvent.setup();
    await fill(user, /^Ticker/, 'GEM');
    await fill(user, /^Name/, 'Gemstone');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getAllByText('Name is required')).toHaveLength(3));
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveAccessibleDescription(/Name is required/);
    expect(screen.queryByText('"name" is required')).toBeNull();
  });
});
