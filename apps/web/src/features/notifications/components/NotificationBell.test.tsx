/**
 * The bell against a mocked API (DESIGN §11.3): the unread count, the panel's newest items, opening one
 * marks it read and follows its link (a web path with its query string) through the router, "Mark all as
 * read" marks everything, an empty list says so (on a phone, where the panel is a full-screen dialog); and a pushed notification reaches the bell's list at once.
 */
import {
  type Notification,
  type NotificationsResponse,
  notificationsResponse,
  readNotificationsResponse,
} from '@starlight/shared';
import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPushedNotification, BELL_LIMIT } from '../../../lib/notifications-live.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';
import { answers } from '../../../test/answer.ts';
import { testUser } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderRoute } from '../../../test/TestProviders.tsx';
import { NotificationBell, unreadLabel } from './NotificationBell.tsx';

const note = (i: number, over: Partial<Notification> = {}): Notification => ({
  _id: `6a00000000000000000000${String(i).padStart(2, '0')}`,
  kind: 'transfer_received',
  title: `You received ${i}.00 SD`,
  body: `From carol: "gift ${i}"`,
  link: '/userbank?tab=bank',
  createdAt: new Date(Date.now() - i * 60_000).toISOString(),
  read: false,
  ...over,
});

const realMatchMedia = window.matchMedia;
beforeEach(() => {
  useSession.setState({ user: testUser('alice'), token: 'session' });
  // A phone: the panel is a full-screen dialog.
  window.matchMedia = (query: string) => ({ ...realMatchMedia(query), matches: query.includes('61.99375em') });
});
afterEach(() => {
  window.matchMedia = realMatchMedia;
});

describe('the bell', () => {
  it('shows the unread count, opens one (read, then its page) and marks all read', async () => {
    let list = [note(1), note(2, { read: true })];
    const reads: unknown[] = [];
    server.use(
      answers.post('/user/notifications', notificationsResponse, () => ({
        notifications: list,
        total: list.length,
        unread: list.filter((n) => !n.read).length,
        message: 'OK',
      })),
      answers.post('/user/notifications/read', readNotificationsResponse, async ({ request }) => {
        const body = (await request.json()) as { ids?: string[] };
        reads.push(body);
        list = list.map((n) => (!body.ids || body.ids.includes(n._id) ? { ...n, read: true } : n));
        return { unread: list.filter((n) => !n.read).length, message: 'Marked as read' };
      }),
    );
    const router = renderRoute('/dashboard', () => <NotificationBell />, ['/userbank']);
    const user = userEvent.setup();
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await user.click(bell);
    const item = await screen.findByRole('button', { name: /^Unread:\s*You received 1\.00 SD/ });
    expect(screen.getByRole('button', { name: /^You received 2\.00 SD/ })).toBeInTheDocument();
    expect(screen.getByText('2 minutes ago')).toBeInTheDocument();
    await user.click(item);
    await waitFor(() => expect(router.state.location.pathname).toBe('/userbank'));
    expect(router.state.location.search).toEqual({ tab: 'bank' });
    expect(reads).toEqual([{ ids: [note(1)._id] }]);
    // Back on a page with the bell: nothing unread.
    await router.navigate({ to: '/dashboard' });
    await screen.findByRole('button', { name: 'Notifications' });

    list = [note(3), note(4)];
    await router.navigate({ to: '/userbank' });
    await router.navigate({ to: '/dashboard' });
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    await user.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    await screen.findByRole('button', { name: 'Notifications' });
    expect(reads.at(-1)).toEqual({});
  });

  it('says so when there is nothing yet', async () => {
    server.use(
      answers.post('/user/notifications', notificationsResponse, () => ({
        notifications: [],
        total: 0,
        unread: 0,
        message: 'OK',
      })),
    );
    renderRoute('/dashboard', () => <NotificationBell />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText(/Nothing yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });

  it('takes a pushed notification into its first page at once, once', () => {
    const client = new QueryClient();
    const key = queryKeys.notifications('session', { paging: { limit: BELL_LIMIT, page: 1 } });
    const first = Array.from({ length: BELL_LIMIT }, (_, i) => note(i + 1, { read: true }));
    client.setQueryData<NotificationsResponse>(key, { notifications: first, total: 12, unread: 0, message: 'OK' });
    const pushed = note(0, { kind: 'broadcast', title: 'Maintenance' });
    applyPushedNotification(client, 'session', pushed);
    applyPushedNotification(client, 'session', pushed);
    const got = client.getQueryData<NotificationsResponse>(key);
    expect(got?.notifications.map((n) => n._id)).toEqual([pushed._id, ...first.slice(0, 9).map((n) => n._id)]);
    expect(got).toMatchObject({ total: 13, unread: 1 });
    expect(unreadLabel(7)).toBe('7');
    expect(unreadLabel(120)).toBe('99+');
  });
});
