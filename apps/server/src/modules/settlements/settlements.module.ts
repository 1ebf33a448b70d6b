/**
 * The settlements module's root (SPEC §7 Bank, DESIGN §8): deposits and withdrawals to and from wallets,
 * the group commit of withdrawals, members' withdrawal addresses (DESIGN §11.2), and their routes under
 * /api/bank. Owns `settlements`, `withdraw_addresses` and `withdraw_allow_lists`.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { memoryFailureCounter, redisFailureCounter } from '../../lib/failure-counter.ts';
import { createMailer } from '../../lib/mailer.ts';
import type { MfaDeps } from '../mfa/mfa.public.ts';
import { startWithdrawBatches } from './settlements.batches.ts';
import { settlementsRoutes } from './settlements.routes.ts';
import { withdrawAddressesRoutes } from './withdraw-addresses.routes.ts';
import type { WithdrawAddressesDeps } from './withdraw-addresses.service.ts';

/**
 * Registers the settlements at `/api/bank`; `readDb` serves the admin's settlement list; `mfa` the
 * step-up a withdrawal and a new withdrawal address ask for (DESIGN §11.1). An address's confirmation
 * link goes through the configured mailer, counted in `redis` with the site's other mails.
 */
export const settlementsModule: FastifyPluginAsync<{
  db: Db;
  readDb: Db;
  mfa: MfaDeps;
  config: Config;
  redis: Redis | null;
  publicUrl: string;
}> = async (app, { db, readDb, mfa, config, redis, publicUrl }) => {
  const withdrawBatches = startWithdrawBatches(app, db);
  await app.register(settlementsRoutes, { prefix: '/api/bank', db, readDb, withdrawBatches, mfa });
  const addresses: WithdrawAddressesDeps = {
    db,
    mfa,
    mailer: createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, log: app.log }),
    mailsSent: redis ? redisFailureCounter(redis, 'mails') : memoryFailureCounter(),
    maxMailsPerRecipient: config.RATE_LIMIT_MAILS,
    publicUrl,
    holdHours: config.WITHDRAW_ADDRESS_HOLD_HOURS,
    log: app.log,
  };
  await app.register(withdrawAddressesRoutes, {
    prefix: '/api/bank',
    deps: addresses,
    authRateLimit: config.RATE_LIMIT_AUTH,
  });
};
