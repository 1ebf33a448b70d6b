/**
 * /leaderboard (SPEC §2) as a route against a mocked API: the top holders the server ranked, with their
 * amounts at the currency's precision; a visitor's 'Log in to see where you rank!'; a member's own rank,
 * balance and neighbours; a tab per currency that asks for its board; and the server's refusal.
 */
import { currenciesResponse, type LeaderboardResponse, leaderboardResponse } from '@starlight/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { testCurrency } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderRoute } from '../../../test/TestProviders.tsx';
import { LeaderboardPage } from './LeaderboardPage.tsx';

const currencies = [
  testCurrency(1, { ticker: 'SD', name: 'Stardust' }),
  testCurrency(2, { ticker: 'SN', name: 'Supernova', precision: 0 }),
  testCurrency(3, { ticker: 'CR', name: 'Credits' }),
];
const top: LeaderboardResponse = {
  leaders: [
    { rank: 1, nickname: 'vega', amount: '1500' },
    { rank: 2, nickname: 'Anonymous', amount: '20.5' },
  ],
  position: null,
  balance: null,
  around: [],
  message: 'OK',
};

/** Answers each board with `board(currencyId)`; the currency ids asked for are returned. */
function mockBoards(board: (currencyId: number) => AnswerOf<typeof leaderboardResponse>) {
  const asked: number[] = [];
  server.use(
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies, message: 'OK' })),
    answers.post('/user/leaderboard', leaderboardResponse, async ({ request }) => {
      const { currencyId } = (await request.json()) as { currencyId: number };
      asked.push(currencyId);
      return board(currencyId);
    }),
  );
  return asked;
}

const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

beforeEach(() => useSession.setState({ user: null, token: null }));

describe('/leaderboard', () => {
  it('shows the top SD holders to a visitor, and the way to log in', async () => {
    const asked = mockBoards(() => top);
    renderRoute('/leaderboard', LeaderboardPage, ['/login']);
    const table = await screen.findByRole('table', { name: 'Top SD holders' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map(cells)).toEqual([
      ['1', 'vega', '1,500.00'],
      ['2', 'Anonymous', '20.50'],
    ]);
    expect(screen.getByRole('link', { name: 'Log in to see where you rank!' })).toBeInTheDocument();
    expect(asked).toEqual([1]);
  });

  it("shows a member's rank, balance and the holders around them", async () => {
    useSession.setState({ token: 'session-token' });
    mockBoards(() => ({
      ...top,
      position: 2,
      balance: '20.5',
      around: [
        { rank: 1, nickname: 'vega', amount: '1500' },
        { rank: 2, nickname: 'alice', amount: '20.5' },
      ],
    }));
    renderRoute('/leaderboard', LeaderboardPage);
    expect(await screen.findByTestId('own-rank')).toHaveTextContent('#2');
    expect(screen.getByTestId('own-balance')).toHaveTextContent('20.50 SD');
    const around = screen.getByRole('table', { name: 'Around you' });
    const own = within(around).getByRole('row', { current: true });
    expect(cells(own)).toEqual(['2', 'alice (you)', '20.50']);
  });

  it('asks for the board of the tab chosen, and keeps it in the URL', async () => {
    const asked = mockBoards((id) => (id === 2 ? { ...top, leaders: [] } : top));
    const router = renderRoute('/leaderboard', LeaderboardPage, ['/login']);
    await screen.findByRole('table', { name: 'Top SD holders' });
    await userEvent.setup().click(screen.getByRole('tab', { name: 'SN' }));
    expect(await screen.findByText('No holders yet')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Top SN holders' })).toBeInTheDocument();
    expect(asked).toEqual([1, 2]);
    expect(router.state.location.search).toEqual({ currency: 2 });
  });

  it("shows the server's refusal of the currency in words", async () => {
    mockBoards(() => refuse(400, '"currencyId" contains an invalid value'));
    renderRoute('/leaderboard?currency=3', LeaderboardPage);
    expect(await screen.findByText('Could not load the leaderboard')).toBeInTheDocument();
    expect(screen.getByText('This currency has no leaderboard. Choose another tab.')).toBeInTheDocument();
    expect(screen.queryByText(/currencyId/)).not.toBeInTheDocument();
  });
});
