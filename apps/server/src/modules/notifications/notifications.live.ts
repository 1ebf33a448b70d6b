/**
 * Live notifications (DESIGN §11.3): once a transaction that wrote notifications commits, on whichever
 * replica, every server process loads them by id and pushes `{type: 'notification', notification}` to
 * their members' sockets; a broadcast goes to every signed-in socket of its role.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { subscribeToChanges } from '../../lib/live-changes.ts';
import { findBroadcasts, findNotifications } from './notifications.queries.ts';
import { toNotification } from './notifications.service.ts';

/** How long written notifications are merged before they are loaded and pushed (milliseconds). */
const FLUSH_MS = 15;

/** Wires live notifications into the live hub of `app`. Returns the function that stops it. */
export function startNotificationsLive(app: FastifyInstance, db: Db): () => void {
  const { hub, bus } = app.live;
  return subscribeToChanges(
    bus,
    FLUSH_MS,
    async ({ notifications, broadcasts }) => {
      // Nothing to load when no socket of this process is signed in.
      if (![...hub.clients].some((c) => c.user)) return;
      if (notifications.length > 0) {
        for (const row of await findNotifications(db, notifications)) {
          // Already read when it came due (a forge_ready whose process was claimed first): no news.
          if (!row.user_id || row.read) continue;
          const notification = toNotification(row);
          for (const c of hub.clientsOfUser(row.user_id)) c.send({ type: 'notification', notification });
        }
      }
      if (broadcasts.length > 0) {
        for (const row of await findBroadcasts(db, broadcasts)) {
          const notification = toNotification(row);
          for (const c of hub.clients) {
            if (c.user && (row.role === null || c.user.role === row.role))
              c.send({ type: 'notification', notification });
          }
        }
      }
    },
    (err) => app.log.warn({ err }, 'live notifications push failed'),
  );
}
