/**
 * Settings → Notifications against a mocked API (DESIGN §11.3): security shown on and disabled; Save sends
 * only the kinds changed and shows the server's message; a member without a confirmed e-mail is told that
 * mails need one; a failed load shows the server's message.
 */
import { NOTIFICATION_KINDS, notificationSettingsResponse } from '@starlight/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { answers, refuse } from '../../../test/answer.ts';
import { testUser } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { NotificationSettingsCard } from './NotificationSettingsCard.tsx';

const NONE = Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, k === 'security'])) as Record<string, boolean>;

beforeEach(() => useSession.setState({ user: testUser('alice'), token: 'session' }));

describe('Notifications card', () => {
  it('saves the kinds changed and shows the server message; security stays on', async () => {
    const sent: unknown[] = [];
    let stored = { ...NONE };
    server.use(
      answers.get('/user/notificationSettings', notificationSettingsResponse, () => ({
        settings: { email: stored },
        message: 'OK',
      })),
      answers.post('/user/notificationSettings', notificationSettingsResponse, async ({ request }) => {
        const body = (await request.json()) as { email: Record<string, boolean> };
        sent.push(body);
        stored = { ...stored, ...body.email };
        return { settings: { email: stored }, message: 'Notification settings saved' };
      }),
    );
    renderWithProviders(<NotificationSettingsCard user={testUser('alice')} />);
    const security = await screen.findByRole('switch', { name: /^Security: also by e-mail/ });
    expect(security).toBeChecked();
    expect(security).toBeDisabled();
    expect(screen.getByText(/Security e-mails always go/)).toBeInTheDocument();
    expect(screen.queryByText('E-mails need a confirmed address')).toBeNull();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    const user = userEvent.setup();
    await user.click(screen.getByRole('switch', { name: 'Orders filled: also by e-mail' }));
    await user.click(screen.getByRole('switch', { name: 'Items received: also by e-mail' }));
    await user.click(save);
    expect(await screen.findByText('Notification settings saved')).toBeInTheDocument();
    expect(sent).toEqual([{ email: { order_filled: true, items_received: true } }]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
    expect(screen.getByRole('switch', { name: 'Orders filled: also by e-mail' })).toBeChecked();
  });

  it('tells a member without a confirmed e-mail that mails need one, and shows a failed load', async () => {
    server.use(answers.get('/user/notificationSettings', notificationSettingsResponse, () => refuse(403, 'Nope')));
    renderWithProviders(<NotificationSettingsCard user={testUser('bob', { isEmailVerified: false })} />);
    expect(screen.getByText('E-mails need a confirmed address')).toBeInTheDocument();
    expect(await screen.findByText('Nope')).toBeInTheDocument();
  });
});
