/**
 * The notifications module's root (DESIGN §11.3): a member's list, read marks and e-mail choices under
 * /api/user, the live pushes of what commits and of what became due, the mails of the kinds members chose,
 * and the pruning job.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { memoryFailureCounter, redisFailureCounter } from '../../lib/failure-counter.ts';
import { createMailer } from '../../lib/mailer.ts';
import type { PeriodicJob } from '../../lib/periodic.ts';
import { startNotificationMails } from './email.job.ts';
import { startNotificationsLive } from './notifications.live.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { startDueNotificationsPush, startNotificationPruning } from './notifications.service.ts';

/**
 * Registers the notifications at `/api/user` and starts their live pushes, their mails (every
 * `NOTIFICATION_MAIL_EVERY_MS`, through the configured mailer, at most `NOTIFICATION_MAILS_PER_HOUR` to an
 * address, counted in `redis` with the site's other mails, linking to `publicUrl`) and their pruning.
 * `started` receives the mail job (tests run it at will).
 */
export const notificationsModule: FastifyPluginAsync<{
  db: Db;
  config: Config;
  redis: Redis | null;
  publicUrl: string;
  started?: (mails: PeriodicJob) => void;
}> = async (app, { db, config, redis, publicUrl, started }) => {
  await app.register(notificationsRoutes, { prefix: '/api/user', db });
  const stopLive = startNotificationsLive(app, db);
  const mails = startNotificationMails(
    {
      db,
      mailer: createMailer({
        smtpUrl: config.SMTP_URL,
        from: config.MAIL_FROM,
        dataDir: config.DATA_DIR,
        log: app.log,
      }),
      mailsSent: redis ? redisFailureCounter(redis, 'mails') : memoryFailureCounter(),
      maxMailsPerRecipient: config.NOTIFICATION_MAILS_PER_HOUR,
      publicUrl,
      log: app.log,
    },
    config.NOTIFICATION_MAIL_EVERY_MS,
  );
  started?.(mails);
  const pruning = startNotificationPruning(db, app.log);
  const duePush = startDueNotificationsPush(db, app.live.changes, app.log);
  app.addHook('onClose', async () => {
    stopLive();
    await duePush.stop();
    await mails.stop();
    await pruning.stop();
  });
};
