/**
 * The users module's root (SPEC §7, DESIGN §8) under /api/user: sign-up and sign-in (password, wallet,
 * e-mail), a member's own settings, and the admin's user list, stats and controls. It builds
 * their dependencies from the configuration (the sign-in failure and mail counters, in Redis when there
 * is one, and the mailer) and checks the kept user stats once the app is ready.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { memoryFailureCounter, redisFailureCounter } from '../../lib/failure-counter.ts';
import { createMailer } from '../../lib/mailer.ts';
import { usersAdminRoutes } from './admin.routes.ts';
import * as admin from './admin.service.ts';
import { emailRoutes } from './email.routes.ts';
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
  // The kept user stats build themselves when their state is missing. The check reads every
  // user and positive balance (long at a million members), so it runs beside the first requests rather
  // than before them: the server is ready at once, and getUserStats is right once a rebuild, if any, ends.
  let checking: Promise<void> = Promise.resolve();
  app.addHook('onReady', async () => {
    checking = admin
      .prepareUserStats(deps)
      .catch((err) => app.log.error({ err }, 'could not check the kept user stats'));
  });
  app.addHook('onClose', async () => checking);
  const prefix = '/api/user';
  await app.register(usersRoutes, { prefix, deps, authRateLimit: config.RATE_LIMIT_AUTH });
  await app.register(walletRoutes, { prefix, deps, authRateLimit: config.RATE_LIMIT_AUTH });
  await app.register(emailRoutes, { prefix, deps, authRateLimit: config.RATE_LIMIT_AUTH });
  await app.register(usersAdminRoutes, { prefix, deps });
};
