/**
 * The users module's root (SPEC §7, DESIGN §8) under /api/user: sign-up and sign-in (password, wallet,
 * e-mail, passkey), a member's own settings, and the admin's user list and controls. It builds their dependencies
 * from the configuration (the sign-in failure and mail counters, in Redis when there is one, and the
 * mailer). The admin's user stats, under /api/user too, are the reports module's.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { SignInClient } from '../../http/sign-in-client.ts';
import { memoryFailureCounter, redisFailureCounter } from '../../lib/failure-counter.ts';
import { createMailer } from '../../lib/mailer.ts';
import { findUserById, type UserRow } from '../accounts/accounts.public.ts';
import type { MfaDeps } from '../mfa/mfa.public.ts';
import { passkeysRoutes } from '../passkeys/passkeys.public.ts';
import { usersAdminRoutes } from './admin.routes.ts';
import { dataRightsRoutes } from './data-rights.routes.ts';
import { emailRoutes } from './email.routes.ts';
import { mailPasskeyAddedLater, mailTwoFactorOffLater, securityEventOf } from './security-mails.ts';
import { securityNotices } from './security-notices.ts';
import { sessionsRoutes } from './sessions.routes.ts';
import { startSessionPruning } from './sessions.service.ts';
import { usersRoutes } from './users.routes.ts';
import { rememberAddress, session, type UsersDeps } from './users.service.ts';
import { walletRoutes } from './wallet.routes.ts';

/** Registers the users at `/api/user`. */
export const usersModule: FastifyPluginAsync<{
  db: Db;
  readDb: Db;
  config: Config;
  redis: Redis | null;
  publicUrl: string;
  /** The second factors sign-in and step-up ask for (DESIGN §11.1). */
  mfa: MfaDeps;
}> = async (app, { db, readDb, config, redis, publicUrl, mfa }) => {
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
    adminMfa: config.ADMIN_MFA,
    mfa,
    mailer: createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, log: app.log }),
  };
  const prefix = '/api/user';
  await app.register(usersRoutes, { prefix, deps, authRateLimit: config.RATE_LIMIT_AUTH });
  await app.register(walletRoutes, { prefix, deps, authRateLimit: config.RATE_LIMIT_AUTH });
  await app.register(emailRoutes, { prefix, deps, authRateLimit: config.RATE_LIMIT_AUTH });
  await app.register(usersAdminRoutes, { prefix, deps });
  await app.register(sessionsRoutes, { prefix, deps });
  await app.register(dataRightsRoutes, { prefix, deps });
  // A passkey proves the account and, with user verification, a second factor (DESIGN §11.1).
  const signIn = async (row: UserRow, message: string, client: SignInClient) => {
    await rememberAddress(deps, row.id, client.address);
    return session(deps, row, message, client, true);
  };
  // Security mails of second factors the other modules change (DESIGN §11.1), after the response.
  const mailLater = (userId: string, send: (account: UserRow) => void) => {
    findUserById(db, userId)
      .then((row) => row && send(row))
      .catch((err: unknown) => app.log.warn({ err }, 'could not mail a security change'));
  };
  mfa.events.on('totpOff', (userId, client) =>
    mailLater(userId, (row) => mailTwoFactorOffLater(deps, row, securityEventOf(client))),
  );
  const onAdded = (userId: string, name: string, client: SignInClient) =>
    mailLater(userId, (row) => mailPasskeyAddedLater(deps, row, securityEventOf(client), name));
  // The in-app notices of those changes, written in their transactions (DESIGN §11.3).
  const notices = securityNotices(app.live.changes);
  mfa.securityNotices = notices;
  await app.register(passkeysRoutes, {
    prefix,
    deps: { db, publicUrl, signIn, onAdded, securityNotices: notices },
    authRateLimit: config.RATE_LIMIT_AUTH,
  });
  const pruning = startSessionPruning(db, app.log);
  app.addHook('onClose', async () => pruning.stop());
};
