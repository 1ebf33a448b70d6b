/**
 * The Admin Console's Forge Process Logs (SPEC §2) against a mocked API: each process in SPEC's columns,
 * its sides as "ticker x amount times quantity" and its state by name; the filters sent on Search; and
 * 'No logs found'.
 */
import {
  currenciesResponse,
  type ForgeProcess,
  forgeProcessesResponse,
  PROCESS_STATE,
  recipesResponse,
} from '@starlight/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answers } from '../../../test/answer.ts';
import { CREATED, testCurrency, testId } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { ForgeProcessLogsTab } from './ForgeProcessLogsTab.tsx';

const dust = testCurrency(5, { ticker: 'SD', name: 'Stardust' });
const ore = testCurrency(6, { ticker: 'ORE', name: 'Ore', precision: 0 });
const smelting: ForgeProcess = {
  _id: testId(0x91),
  createdAt: CREATED,
  finishDate: '2026-11-01T01:30:00.000Z',
  recipe: { _id: testId(0x51), name: 'Smelt ore' },
  input: { currencyId: dust.currencyId, amount: '25' },
  output: { currencyId: ore.currencyId, amount: '1' },
  quantity: 3,
  state: PROCESS_STATE.Completed,
  user: { nickname: 'alice' },
  endedAt: '2026-11-01T02:00:00.000Z',
};

/** Serves `processes`; the request bodies are returned. */
function mockLogs(processes: ForgeProcess[]) {
  const asked: unknown[] = [];
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [dust, ore], message: 'OK' })),
    answers.get('/forge/recipes/fetch', recipesResponse, () => ({ recipes: [], message: 'OK' })),
    answers.post('/forge/getForgeProcessesAll', forgeProcessesResponse, async ({ request }) => {
      asked.push(await request.json());
      return { processes, total: processes.length, totalCapped: false, message: 'OK' };
    }),
  );
  return asked;
}

describe('Forge Process Logs', () => {
  it("shows each process in SPEC's columns", async () => {
    mockLogs([smelting]);
    renderWithProviders(<ForgeProcessLogsTab />);
    const row = (await screen.findByRole('cell', { name: 'Smelt ore' })).closest('tr') as HTMLElement;
    await within(row).findByRole('cell', { name: 'SD x 25.00 × 3' });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      '01/11/2026, 00:00:00',
      '01/11/2026, 01:30:00',
      'alice',
      'Smelt ore',
      'SD x 25.00 × 3',
      'ORE x 1 × 3',
      'Completed',
    ]);
  });

  it("sends the typed filters on Search, and says 'No logs found'", async () => {
    const asked = mockLogs([]);
    renderWithProviders(<ForgeProcessLogsTab />);
    expect(await screen.findByText('No logs found')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Nickname' }), 'alice');
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'Cancelled');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('No logs found');
    expect(asked[0]).toEqual({ paging: { limit: 10, page: 1 }, filters: {} });
    expect(asked).toContainEqual({ paging: { limit: 10, page: 1 }, filters: { nickname: 'alice', state: 4 } });
  });
});
