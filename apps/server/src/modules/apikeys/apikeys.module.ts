/** The API keys module's root (DESIGN §8): a member's scoped keys under /api/user (the `Default` one sealed with the server secret). */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { apiKeySealingKey } from '../../lib/api-key-crypto.ts';
import type { MfaDeps } from '../mfa/mfa.public.ts';
import { apiKeysRoutes } from './apikeys.routes.ts';

/**
 * Registers the API keys at `/api/user`; `secret`: the server secret the keys are sealed with; `mfa`: the
 * step-up a new key needs (DESIGN §11.1).
 */
export const apikeysModule: FastifyPluginAsync<{ db: Db; secret: string; mfa: MfaDeps }> = async (
  app,
  { db, secret, mfa },
) => {
  await app.register(apiKeysRoutes, { prefix: '/api/user', deps: { db, sealingKey: apiKeySealingKey(secret), mfa } });
};
