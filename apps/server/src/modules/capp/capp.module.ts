/** The creator apps module's root (DESIGN §7 "OAuth-grade consent"): its routes under /api/capp. */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { cappRoutes } from './capp.routes.ts';

/** Registers the creator apps at `/api/capp`; `publicUrl` starts the consent page's address. */
export const cappModule: FastifyPluginAsync<{ db: Db; publicUrl: string }> = async (app, { db, publicUrl }) => {
  await app.register(cappRoutes, { prefix: '/api/capp', db, publicUrl });
};
