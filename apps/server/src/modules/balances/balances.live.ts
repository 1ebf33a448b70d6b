/**
 * Live balances (DESIGN §5): a signed-in member's sockets get the member's balances when they sign in
 * and again whenever a committed request changed them (a transfer, mint, burn, distribution, order,
 * fill, cancel or payout: whatever touched the member in its `LiveChanges`), from every server process.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { onSocketAuthenticated, subscribeToChanges } from '../../lib/live-changes.ts';
import type { LiveClient } from '../../plugins/websocket.ts';
import { loadUserDto } from '../accounts/accounts.public.ts';

/** How long changes are merged before the balances are loaded and pushed (milliseconds). */
const FLUSH_MS = 15;

/** Pushes `userId`'s non-zero balances, as `User.balances` shows them, to the sockets `to`. */
async function pushBalances(db: Db, userId: string, to: readonly LiveClient[]): Promise<void> {
  const user = await loadUserDto(db, userId);
  for (const c of to) c.send({ type: 'balances', balances: user?.balances ?? [] });
}

/** Wires live balances into the live hub of `app`. Returns the function that stops it. */
export function startBalancesLive(app: FastifyInstance, db: Db): () => void {
  const { hub, bus } = app.live;
  onSocketAuthenticated(hub, async (client) => {
    if (client.user) await pushBalances(db, client.user.id, [client]);
  });
  return subscribeToChanges(
    bus,
    FLUSH_MS,
    async ({ users }) => {
      for (const userId of users) {
        const sockets = hub.clientsOfUser(userId);
        if (sockets.length > 0) await pushBalances(db, userId, sockets);
      }
    },
    (err) => app.log.warn({ err }, 'live balances push failed'),
  );
}
