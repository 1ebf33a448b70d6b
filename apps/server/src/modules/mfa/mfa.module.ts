/**
 * The mfa module's root (DESIGN §11.1): second factors under /api/user/mfa (an authenticator app and its
 * recovery codes), the sign-in challenges the users module redeems, and the step-up other modules ask
 * for, and the security hold of withdrawals (DESIGN §11.2). Owns `user_totp`, `user_recovery_codes`,
 * `mfa_tokens` and `security_holds`.
 */
import { EventEmitter } from 'node:events';
import type { FastifyPluginAsync } from 'fastify';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/client.ts';
import { apiKeySealingKey } from '../../lib/api-key-crypto.ts';
import { memoryFailureCounter, redisFailureCounter } from '../../lib/failure-counter.ts';
import { mfaRoutes } from './mfa.routes.ts';
import type { MfaDeps } from './mfa.service.ts';
import { startMfaTokenPruning } from './signin.service.ts';

/** Wrong second-factor codes an account may send per 15 minutes. */
const MAX_CODE_FAILURES = 10;

/**
 * The second factors' dependencies, built once and shared by every module that asks for a code:
 * `secret` is the server secret (TOTP secrets are sealed like API keys); the wrong-code counter lives in
 * Redis when there is one, so replicas share it; `securityHoldHours`: `SECURITY_HOLD_HOURS` (DESIGN §11.2).
 */
export function createMfaDeps(db: Db, secret: string, redis: Redis | null, securityHoldHours: number): MfaDeps {
  return {
    db,
    sealingKey: apiKeySealingKey(secret),
    codeFailures: redis ? redisFailureCounter(redis, 'mfa-codes') : memoryFailureCounter(),
    maxCodeFailures: MAX_CODE_FAILURES,
    events: new EventEmitter(),
    securityHoldHours,
  };
}

/** Registers the second factors at `/api/user` and prunes expired sign-in challenges. */
export const mfaModule: FastifyPluginAsync<{ deps: MfaDeps }> = async (app, { deps }) => {
  await app.register(mfaRoutes, { prefix: '/api/user', deps });
  const pruning = startMfaTokenPruning(deps.db, app.log);
  app.addHook('onClose', async () => pruning.stop());
};
