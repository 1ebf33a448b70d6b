/**
 * The synth chips' money calls, retried after a lost answer (DESIGN §3, §7): Buy on /synthchips (Credits
 * for chips) and Commence on /openasc (chips for ships). The first press reaches the server and commits,
 * the member sees 'Network Error'; pressing again sends the same Idempotency-Key, so the chips are
 * bought (or opened) once, and the success shows.
 */
import { notifications } from '@mantine/notifications';
import {
  buySynthChipsResponse,
  currenciesResponse,
  dropTableResponse,
  meResponse,
  openSynthChipsResponse,
  synthChipsResponse,
} from '@starlight/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { answers } from '../../../test/answer.ts';
import { testCurrency } from '../../../test/fixtures.ts';
import { expectRetriedOnce, pressTwice, serveMoneyMoving, signInMember } from '../../../test/money-retry.ts';
import { server } from '../../../test/setup.ts';
import { renderRoute } from '../../../test/TestProviders.tsx';
import { OpenChipsPage } from './OpenChipsPage.tsx';
import { SynthChipsPage } from './SynthChipsPage.tsx';

const credits = testCurrency(3, { ticker: 'CR', name: 'Credits' });
const chips = testCurrency(7, { ticker: 'ASC', name: 'Alpha Synth Chip', precision: 0 });

beforeEach(() => {
  // The toasts of the last test are still in the store: start from none.
  notifications.clean();
  const member = signInMember([
    { currencyId: credits.currencyId, amount: '5000.00' },
    { currencyId: chips.currencyId, amount: '3' },
  ]);
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [credits, chips], message: 'OK' })),
    answers.get('/user/me', meResponse, () => ({ user: member, message: 'OK' })),
    answers.get('/inventory/synthChips', synthChipsResponse, () => ({
      remaining: 100,
      price: '500.00',
      currencyId: chips.currencyId,
      message: 'OK',
    })),
    answers.get('/inventory/dropTable', dropTableResponse, () => ({ table: [], shipsPerChip: 5, message: 'OK' })),
  );
});

describe("the synth chips' money calls, retried after a lost answer", () => {
  it('Buy: sent again, pays for the chips once', async () => {
    const ledger = serveMoneyMoving('/inventory/buySynthChips', buySynthChipsResponse, {
      remaining: 99,
      message: 'Bought 1 synth chip',
    });
    renderRoute('/synthchips', SynthChipsPage, ['/login', '/openasc']);
    const u = userEvent.setup();
    await pressTwice(async () => u.click(await screen.findByRole('button', { name: 'Buy' })), 'Bought 1 synth chip');
    expectRetriedOnce(ledger);
    expect(ledger.bodies[0]).toEqual({ amount: 1 });
  });

  it('Commence: sent again, opens the chips once', async () => {
    const ledger = serveMoneyMoving('/inventory/openSynthChips', openSynthChipsResponse, {
      createdItems: [],
      message: 'Opened 1 synth chip',
    });
    renderRoute('/openasc', OpenChipsPage, ['/login', '/synthchips']);
    const u = userEvent.setup();
    await pressTwice(
      async () => u.click(await screen.findByRole('button', { name: 'Commence' })),
      'Opened 1 synth chip',
    );
    expectRetriedOnce(ledger);
    expect(ledger.bodies[0]).toEqual({ amount: 1 });
  });
});
