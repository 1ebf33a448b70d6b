/**
 * The forge's money calls, retried after a lost answer (DESIGN §3, §6): Start Forge on a recipe and Claim
 * on a process's row. The first press reaches the server and commits, the member sees 'Network Error';
 * pressing again sends the same Idempotency-Key, so the input is taken (or the output paid) once, and the
 * success shows. Each row keeps its own key: another process claimed in between does not change it.
 */
import { notifications } from '@mantine/notifications';
import {
  currenciesResponse,
  type ForgeProcess,
  forgeProcessesResponse,
  processResponse,
  type Recipe,
} from '@starlight/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { answers } from '../../../test/answer.ts';
import { testCurrency } from '../../../test/fixtures.ts';
import { expectRetriedOnce, pressTwice, serveMoneyMoving, signInMember } from '../../../test/money-retry.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { ForgeLogs } from './ForgeLogs.tsx';
import { RecipeCard } from './RecipeCard.tsx';

const ore = testCurrency(2, { ticker: 'ORE', name: 'Ore' });
const gold = testCurrency(4, { ticker: 'GLD', name: 'Gold' });
const recipe: Recipe = {
  _id: '6a0000000000000000000051',
  name: 'Smelt',
  description: 'Ore into gold',
  imgUrl: '',
  timeRequired: 60,
  input: { currencyId: 2, amount: '5' },
  output: { currencyId: 4, amount: '1' },
  active: true,
  createdAt: '2026-11-01T00:00:00.000Z',
};
/** A finished process of `name`, ready to claim. */
const finished = (id: string, name: string): ForgeProcess => ({
  _id: id,
  createdAt: '2026-11-01T00:00:00.000Z',
  finishDate: '2026-11-01T00:01:00.000Z',
  recipe: { _id: recipe._id, name },
  input: recipe.input,
  output: recipe.output,
  quantity: 1,
  state: 1,
  user: { nickname: 'alice' },
  endedAt: null,
});
const first = finished('6a0000000000000000000061', 'Smelt A');
const second = finished('6a0000000000000000000062', 'Smelt B');

beforeEach(() => {
  // The toasts of the last test are still in the store: start from none.
  notifications.clean();
  signInMember([{ currencyId: 2, amount: '100.00' }]);
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [ore, gold], message: 'OK' })),
    answers.post('/forge/getForgeProcesses', forgeProcessesResponse, () => ({
      processes: [first, second],
      total: 2,
      totalCapped: false,
      message: 'OK',
    })),
  );
});

describe("the forge's money calls, retried after a lost answer", () => {
  it('Start Forge: sent again, takes the input once', async () => {
    const ledger = serveMoneyMoving('/forge/startProcess', processResponse, {
      process: first,
      message: 'Process started',
    });
    const byId = new Map([ore, gold].map((c) => [c.currencyId, c]));
    renderWithProviders(<RecipeCard recipe={recipe} byId={byId} held="100.00" onStarted={() => {}} />);
    const u = userEvent.setup();
    await pressTwice(() => u.click(screen.getByRole('button', { name: 'Start Forge' })), 'Process started');
    expectRetriedOnce(ledger);
    expect(ledger.bodies[0]).toEqual({ recipeId: recipe._id, quantity: 1 });
  });

  it("Claim on a process's row: sent again, pays once", async () => {
    const ledger = serveMoneyMoving('/forge/endProcess', processResponse, {
      process: first,
      message: 'Process finished',
    });
    renderWithProviders(<ForgeLogs />);
    const u = userEvent.setup();
    await pressTwice(
      async () => u.click(await screen.findByRole('button', { name: 'Claim Smelt A' })),
      'Process finished',
    );
    expectRetriedOnce(ledger);
    expect(ledger.bodies[0]).toEqual({ processId: first._id, cancel: false });
  });

  it('Claim: each row keeps its own key while another row is claimed in between', async () => {
    const ledger = serveMoneyMoving('/forge/endProcess', processResponse, {
      process: second,
      message: 'Process finished',
    });
    renderWithProviders(<ForgeLogs />);
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Claim Smelt A' }));
    expect(await screen.findByText('Network Error')).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Claim Smelt B' }));
    expect(await screen.findByText('Process finished')).toBeTruthy();
    await u.click(await screen.findByRole('button', { name: 'Claim Smelt A' }));
    await waitFor(() => expect(screen.getAllByText('Process finished')).toHaveLength(2));
    expect(ledger.bodies.map((b) => (b as { processId: string }).processId)).toEqual([
      first._id,
      second._id,
      first._id,
    ]);
    expect(ledger.keys[1]).not.toBe(ledger.keys[0]);
    expect(ledger.keys[2]).toBe(ledger.keys[0]);
    expect(ledger.movements).toBe(2);
  });
});
