/**
 * The Admin Console's Tnx Logs (SPEC §2) against a mocked API answering through the shared response
 * schemas: every member's ledger rows, the filters sent as SPEC §7's request body (category, amount
 * above) back on page 1, 'No Transactions' for an empty page, a refusal shown in the tab, and a bad
 * filter said with its label before anything is sent.
 */
import { currenciesResponse, type Transaction, transactionsResponse } from '@starlight/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { TxLogSearch } from '../../../lib/tx-log/tx-log-search.ts';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { CREATED, testCurrency, testId } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { TnxLogsTab } from './TnxLogsTab.tsx';

const credits = testCurrency(2, { ticker: 'CR', name: 'Credits' });

const transfer: Transaction = {
  _id: testId(0x31),
  createdAt: CREATED,
  executor: { nickname: 'alice' },
  sender: { nickname: 'alice' },
  recipient: { nickname: 'bob' },
  balance: { currencyId: 2, amount: '12.50' },
  category: 3,
  note: 'for the ships',
  reference: null,
};
const mint: Transaction = {
  ...transfer,
  _id: testId(0x32),
  executor: { nickname: 'root' },
  sender: null,
  recipient: { nickname: 'carol' },
  balance: { currencyId: 2, amount: '100.00' },
  category: 10,
  note: 'launch',
};

/** Answers alltransactions with `answer`; the request bodies it receives are returned. */
function mockTransactions(answer: () => AnswerOf<typeof transactionsResponse>) {
  const sent: unknown[] = [];
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [credits], message: 'OK' })),
    answers.post('/bank/alltransactions', transactionsResponse, async ({ request }) => {
      sent.push(await request.json());
      return answer();
    }),
  );
  return sent;
}

/** The tab with its URL search held in state, as the Admin Console page holds it in the route. */
function TnxLogs() {
  const [search, setSearch] = useState<TxLogSearch>({});
  return <TnxLogsTab url={{ search, onSearch: (next) => setSearch(next) }} />;
}

const page = (txs: Transaction[]) => () => ({ txs, total: txs.length, totalCapped: false, message: 'OK' });
const tab = () => screen.getByRole('region', { name: 'Tnx Logs' });

describe('Tnx Logs', () => {
  it("lists every member's transactions, page 1 of 10 by default", async () => {
    const sent = mockTransactions(page([transfer, mint]));
    renderWithProviders(<TnxLogs />);
    const rows = await screen.findAllByTestId('tnx-row');
    expect(rows).toHaveLength(2);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .slice(1)
        .map((c) => c.textContent);
    await waitFor(() => expect(within(rows[0] as HTMLElement).getByText('CR')).toBeInTheDocument());
    expect(cells(rows[0] as HTMLElement)).toEqual([
      'alice',
      'alice',
      'bob',
      '12.50',
      'CR',
      'Transfer',
      'for the ships',
    ]);
    expect(cells(rows[1] as HTMLElement)).toEqual(['root', 'System', 'carol', '100.00', 'CR', 'Mint', 'launch']);
    expect(sent[0]).toEqual({ paging: { limit: 10, page: 1 } });
  });

  it('sends the category and amount filters on Search', async () => {
    const sent = mockTransactions(page([transfer]));
    renderWithProviders(<TnxLogs />);
    await screen.findAllByTestId('tnx-row');
    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'Transfer');
    await user.type(screen.getByRole('textbox', { name: 'Amount above' }), '10');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ paging: { limit: 10, page: 1 }, category: 3, amountAbove: '10' });
  });

  it('sends the market filter (categories 50 and 51) and keeps it in the URL', async () => {
    const sent = mockTransactions(page([transfer]));
    renderWithProviders(<TnxLogs />);
    await screen.findAllByTestId('tnx-row');
    const user = userEvent.setup();
    const category = screen.getByRole('combobox', { name: 'Category' });
    await user.selectOptions(category, 'Market (purchases and royalties)');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ paging: { limit: 10, page: 1 }, categoryGroup: 'market' });
    expect(category).toHaveValue('market');
  });

  it("says 'No Transactions' for an empty page", async () => {
    mockTransactions(page([]));
    renderWithProviders(<TnxLogs />);
    expect(await screen.findByTestId('tnx-empty')).toHaveTextContent('No Transactions');
    expect(screen.queryAllByTestId('tnx-row')).toHaveLength(0);
  });

  it("shows the server's refusal in the tab and as a toast", async () => {
    mockTransactions(() => refuse(403, 'Forbidden'));
    renderWithProviders(<TnxLogs />);
    expect(await within(tab()).findByRole('alert')).toHaveTextContent('Forbidden');
    await waitFor(() => expect(screen.getAllByText('Forbidden')).toHaveLength(2));
    expect(screen.queryAllByTestId('tnx-row')).toHaveLength(0);
  });

  it('says a bad amount with its label and sends nothing', async () => {
    const sent = mockTransactions(page([transfer]));
    renderWithProviders(<TnxLogs />);
    await screen.findAllByTestId('tnx-row');
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Amount above' }), 'lots');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Amount above contains an invalid value')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
  });
});
