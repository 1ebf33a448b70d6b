/** The balances module's root: live balance pushes to members' sockets for as long as the app runs. */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { startBalancesLive } from './balances.live.ts';

/** Starts the live balances. Register after the websocket plugin. */
export const balancesModule: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  const stop = startBalancesLive(app, db);
  app.addHook('onClose', async () => stop());
};
