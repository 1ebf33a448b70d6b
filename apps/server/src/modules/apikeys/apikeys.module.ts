/** The API keys module's root (DESIGN §8): a member's key, sealed with the server secret, under /api/user. */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { apiKeySealingKey } from '../../lib/api-key-crypto.ts';
import { apiKeysRoutes } from './apikeys.routes.ts';

/** Registers the API keys at `/api/user`; `secret`: the server secret the keys are sealed with. */
export const apikeysModule: FastifyPluginAsync<{ db: Db; secret: string }> = async (app, { db, secret }) => {
  await app.register(apiKeysRoutes, { prefix: '/api/user', deps: { db, sealingKey: apiKeySealingKey(secret) } });
};
