/**
 * Live notifications (DESIGN §11.3): what the member's socket (`{type: 'notification', notification}`)
 * does with one: the bell's list and count take it at once, every list of notifications is read again,
 * and the kinds worth it show a toast.
 */
import type { Notification, NotificationsResponse } from '@starlight/shared';
import type { QueryClient } from '@tanstack/react-query';
import { toastNotice } from './notify.ts';
import { queryKeys } from './query-keys.ts';

/** How many the bell's panel shows: the newest. */
export const BELL_LIMIT = 10;

/**
 * A pushed notification: the bell's first page takes it at once (its unread count up by one), and every
 * list is read again, so paging and totals stay the server's.
 */
export function applyPushedNotification(client: QueryClient, token: string | null, n: Notification): void {
  const bellKey = queryKeys.notifications(token, { paging: { limit: BELL_LIMIT, page: 1 } });
  client.setQueryData<NotificationsResponse>(bellKey, (cur) =>
    cur && !cur.notifications.some((x) => x._id === n._id)
      ? {
          ...cur,
          notifications: [n, ...cur.notifications].slice(0, BELL_LIMIT),
          total: cur.total + 1,
          unread: cur.unread + (n.read ? 0 : 1),
        }
      : cur,
  );
  void client.invalidateQueries({ queryKey: queryKeys.notificationsAll });
}

/** The kinds worth a toast as they arrive (the others only move the bell's count). */
export const TOASTED_KINDS: ReadonlySet<Notification['kind']> = new Set([
  'transfer_received',
  'order_filled',
  'forge_ready',
  'checkout_completed',
  'security',
  'broadcast',
]);

/** A notification pushed over the socket: into the lists, and a toast for the kinds that warrant one. */
export function onPushedNotification(client: QueryClient, token: string | null, n: Notification): void {
  applyPushedNotification(client, token, n);
  if (TOASTED_KINDS.has(n.kind)) toastNotice(n.title, n.body);
}
