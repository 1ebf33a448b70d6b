/**
 * The Admin Console's member tabs (SPEC §2) against a mocked API: User Logs lists the accounts the server
 * gave (a long nickname shortened, the whole one in a dialog) and says 'No Users'; User Control's stats
 * show the server's counts, 'No User Stats' when there are none, and the Administrate User dialog sends
 * only what was chosen and toasts the answer or the refusal.
 */
import {
  type AdminUserRow,
  administrateUserResponse,
  getUserStatsResponse,
  getUsersResponse,
  type UserStats,
} from '@starlight/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { testUser } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { UserControlTab } from './UserControlTab.tsx';
import { UserLogsTab } from './UserLogsTab.tsx';

function row(nickname: string, over: Partial<AdminUserRow> = {}): AdminUserRow {
  const { balances: _, ...account } = testUser(nickname);
  return { ...account, hasCurrency: false, ...over };
}

function mockUsers(users: AdminUserRow[]) {
  server.use(
    answers.post('/user/getUsers', getUsersResponse, () => ({
      users,
      total: users.length,
      totalCapped: false,
      message: 'OK',
    })),
  );
}

const NO_STATS: UserStats = {
  total: 0,
  verifiedEmailAccounts: 0,
  walletUsers: 0,
  anonymousUsers: 0,
  disabledAccounts: 0,
  adminUsers: 0,
  haveCurrency: 0,
};

/** Answers getUserStats with `stats`; what administrateUser receives goes to the returned list. */
function mockControl(stats: UserStats, administrate: () => AnswerOf<typeof administrateUserResponse>) {
  const sent: unknown[] = [];
  server.use(
    answers.post('/user/getUserStats', getUserStatsResponse, () => ({ stats, message: 'OK' })),
    answers.post('/user/administrateUser', administrateUserResponse, async ({ request }) => {
      sent.push(await request.json());
      return administrate();
    }),
  );
  return sent;
}

describe('User Logs', () => {
  it('shows each account with its flags, and a long nickname whole in a dialog', async () => {
    mockUsers([row('bob', { role: 'creator', hasCurrency: true, isActive: false }), row('averyveryverylongname')]);
    renderWithProviders(<UserLogsTab />);
    const bob = (await screen.findByRole('cell', { name: 'bob' })).closest('tr') as HTMLElement;
    expect(
      within(bob)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['bob', '01/11/2026, 00:00:00', '01/11/2026, 00:00:00', 'Yes', 'No', 'No', 'No', 'creator', 'Yes']);
    await userEvent.setup().click(screen.getByRole('button', { name: 'averyv…ngname' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nickname' });
    expect(dialog).toHaveTextContent('averyveryverylongname');
  });

  it("says 'No Users' when none match", async () => {
    mockUsers([]);
    renderWithProviders(<UserLogsTab />);
    expect(await screen.findByText('No Users')).toBeInTheDocument();
  });
});

describe('User Control', () => {
  it("shows the server's counts with thousands separators", async () => {
    mockControl({ ...NO_STATS, total: 12345, walletUsers: 7, haveCurrency: 1200 }, () => refuse(400, 'unused'));
    renderWithProviders(<UserControlTab />);
    const stats = await screen.findByTestId('user-stats');
    expect(within(stats).getByText('Total').nextElementSibling).toHaveTextContent('12,345');
    expect(within(stats).getByText('Wallet Users').nextElementSibling).toHaveTextContent('7');
    expect(within(stats).getByText('Has Currency').nextElementSibling).toHaveTextContent('1,200');
  });

  it("says 'No User Stats' when no account was created in the range", async () => {
    mockControl(NO_STATS, () => refuse(400, 'unused'));
    renderWithProviders(<UserControlTab />);
    expect(await screen.findByText('No User Stats')).toBeInTheDocument();
  });

  it('sends only the chosen change, toasts the answer and closes the dialog', async () => {
    const sent = mockControl(NO_STATS, () => ({ user: testUser('bob'), message: 'User updated' }));
    renderWithProviders(<UserControlTab />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Administrate User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Administrate User' });
    const submit = within(dialog).getByRole('button', { name: 'Submit' });
    await user.type(within(dialog).getByRole('textbox', { name: /User Id/ }), ' bob ');
    // A nickname alone changes nothing: Submit waits for a role or an active state.
    expect(submit).toBeDisabled();
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Active' }), 'False');
    expect(submit).toBeEnabled();
    await user.click(submit);
    expect(await screen.findByText('User updated')).toBeInTheDocument();
    expect(sent).toEqual([{ nickname: 'bob', active: false }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Administrate User' })).not.toBeInTheDocument());
  });

  it("toasts the server's refusal and keeps the dialog open", async () => {
    mockControl(NO_STATS, () => refuse(404, 'User not found'));
    renderWithProviders(<UserControlTab />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Administrate User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Administrate User' });
    await user.type(within(dialog).getByRole('textbox', { name: /User Id/ }), 'nobody');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Role' }), 'Admin');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('User not found')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Administrate User' })).toBeInTheDocument();
  });
});
