/**
 * The Admin Console's audit tabs (SPEC §2) against a mocked API: Access Logs shows the sign-ins the server
 * gave and sends the applied filters on Search, Admin Logs says 'No Admin Action Logs' when there are none
 * and toasts the server's refusal, and Defcon Level sends the level and message it was given.
 */
import {
  type AccessLog,
  type AdminLog,
  broadcastsResponse,
  getAccessLogsResponse,
  getAdminLogsResponse,
  messageResponse,
} from '@starlight/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { CREATED, testId } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { AccessLogsTab } from './AccessLogsTab.tsx';
import { AdminLogsTab } from './AdminLogsTab.tsx';
import { DefconTab } from './DefconTab.tsx';

const signIn: AccessLog = {
  _id: testId(1),
  date: CREATED,
  user: { nickname: 'alice' },
  address: '203.0.113.7',
  loginType: 2,
};

/** Answers getAccessLogs with `logs`; returns the bodies it received. */
function mockAccessLogs(logs: AccessLog[]) {
  const asked: unknown[] = [];
  server.use(
    answers.post('/audit/getAccessLogs', getAccessLogsResponse, async ({ request }) => {
      asked.push(await request.json());
      return { logs, total: logs.length, totalCapped: false, message: 'OK' };
    }),
  );
  return asked;
}

function mockAdminLogs(answer: () => AnswerOf<typeof getAdminLogsResponse>) {
  server.use(answers.post('/audit/getAdminLogs', getAdminLogsResponse, answer));
}

describe('Access Logs', () => {
  it('shows each sign-in the server gave, in SPEC columns', async () => {
    mockAccessLogs([signIn]);
    renderWithProviders(<AccessLogsTab />);
    const cell = await screen.findByRole('cell', { name: '203.0.113.7' });
    const row = cell.closest('tr') as HTMLElement;
    expect(within(row).getByRole('cell', { name: 'alice' })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: 'Wallet Login' })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: '01/11/2026, 00:00:00' })).toBeInTheDocument();
    for (const column of ['Date (UTC)', 'User', 'Address', 'Login Type'])
      expect(screen.getByRole('columnheader', { name: column })).toBeInTheDocument();
  });

  it('asks for page 1 with the typed filters on Search, and says when nothing matches', async () => {
    const asked = mockAccessLogs([]);
    renderWithProviders(<AccessLogsTab />);
    expect(await screen.findByText('No Access Logs')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'User' }), 'bob');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Login type' }), 'Email Login');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('No Access Logs');
    expect(asked).toContainEqual({ paging: { limit: 10, page: 1 }, user: 'bob', category: 1 });
    expect(asked[0]).toEqual({ paging: { limit: 10, page: 1 } });
  });
});

describe('Admin Logs', () => {
  it("shows an action with its category's name, and '—' when no member was affected", async () => {
    const log: AdminLog = {
      _id: testId(2),
      date: CREATED,
      adminUser: { nickname: 'root' },
      affectedUser: null,
      address: '198.51.100.1',
      category: 6,
      action: 'Defcon level set to 2',
    };
    mockAdminLogs(() => ({ logs: [log], total: 1, totalCapped: false, message: 'OK' }));
    renderWithProviders(<AdminLogsTab />);
    const row = (await screen.findByRole('cell', { name: 'Defcon level set to 2' })).closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('root');
    expect(within(row).getByRole('cell', { name: '—' })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: 'Set Defcon Level' })).toBeInTheDocument();
  });

  it("says 'No Admin Action Logs' for an empty page", async () => {
    mockAdminLogs(() => ({ logs: [], total: 0, totalCapped: false, message: 'OK' }));
    renderWithProviders(<AdminLogsTab />);
    expect(await screen.findByText('No Admin Action Logs')).toBeInTheDocument();
  });

  it("toasts the server's refusal", async () => {
    mockAdminLogs(() => refuse(403, 'Forbidden'));
    renderWithProviders(<AdminLogsTab />);
    expect(await screen.findByText('Forbidden')).toBeInTheDocument();
  });
});

describe('Defcon Level', () => {
  it('sends the chosen level and the trimmed message, and toasts the answer', async () => {
    const sent: unknown[] = [];
    server.use(
      answers.post('/audit/setDefconLevel', messageResponse, async ({ request }) => {
        sent.push(await request.json());
        return { message: 'Defcon level set' };
      }),
      // The broadcast card below the level lists the broadcasts sent.
      answers.post('/audit/broadcasts', broadcastsResponse, () => ({ broadcasts: [], total: 0, message: 'OK' })),
    );
    renderWithProviders(<DefconTab />);
    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Level' }), '3');
    await user.type(screen.getByRole('textbox', { name: 'Message' }), '  Withdrawals paused  ');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Defcon level set')).toBeInTheDocument();
    expect(sent).toEqual([{ defconLvl: 3, defconMsg: 'Withdrawals paused' }]);
  });
});
