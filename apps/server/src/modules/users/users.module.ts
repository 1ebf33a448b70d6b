/**
 * The users module's root (SPEC §7, DESIGN §8) under /api/user: sign-up and sign-in (password, wallet,
 * e-mail), a member's own settings, and the admin's user list and controls. It builds their dependencies
 * from the configuration (the sign-in failure and mail counters, in Redis when there is one, and the
 * mailer). The admin's user stats, under /api/user too, are the reports module's.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { memoryFailureCounter, redisFailureCounter } from '../../lib/failure-counter.ts';
import { createMailer } from '../../lib/mailer.ts';
import { usersAdminRoutes } from './admin.routes.ts';
import { emailRoutes } from './email.routes.ts';
import { sessionsRoutes } from './sessions.routes.ts';
import { startSessionPruning } from './sessions.service.ts';
import { usersRoutes } from './users.routes.ts';
import type { UsersDeps } from './users.service.ts';
import { walletRoutes } from './wallet.routes.ts';

/** Registers the users at `/api/user`. */
export const usersModule: FastifyPluginAsync<{
  db: Db;
  readDb: Db;
  config: Config;
  redis: Redis | null;
  publicUrl: string;
}> = async (app, { db, readDb, config, redis, publicUrl }) => {
  const deps: UsersDeps = {
    db,
    readDb,
    app,
    failures: redis ? redisFailureCounter(redis) : memoryFailureCounter(),
    maxLoginFailures: config.RATE_LIMIT_LOGIN_FAILURES,
    maxAccountFailures: config.RATE_LIMIT_ACCOUNT_FAILURES,
    mailsSent: redis ? redisFailureCounter(redis, 'mails') : memoryFailureCounter(),
    maxMailsPerRecipient: config.RATE_LIMIT_MAILS,
    publicUrl,
    mailer: createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, log: app.log }),
  };
  const prefix = '/api/user';
  await app.register(usersRoutes, { prefix, deps, authRateLimit: config.RATE_LIMIT_AUTH });
  await app.register(walletRoutes, { prefix, deps, authRateLimit: config.RATE_LIMIT_AUTH });
  await app.register(emailRoutes, { prefix, deps, authRateLimit: config.RATE_LIMIT_AUTH });
  await app.register(usersAdminRoutes, { prefix, deps });
  await app.register(sessionsRoutes, { prefix, deps });
  const pruning = startSessionPruning(db, app.log);
  app.addHook('onClose', async () => pruning.stop());
};
