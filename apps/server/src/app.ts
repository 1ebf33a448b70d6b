/**
 * buildApp(): plugins, then modules, then one error handler (STYLE: fastify/demo). No listen here.
 */

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { destination } from 'pino';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { assertAccessDeclared } from './http/access.ts';
import { handleError } from './http/errors.ts';
import { parseJsonBody } from './http/json-body.ts';
import type { PeriodicJob } from './lib/periodic.ts';
import { apikeysModule } from './modules/apikeys/apikeys.module.ts';
import { balancesModule } from './modules/balances/balances.module.ts';
import { bankModule } from './modules/bank/bank.module.ts';
import { cappModule } from './modules/capp/capp.module.ts';
import { checkoutModule } from './modules/checkout/checkout.module.ts';
import { chipsModule } from './modules/chips/chips.module.ts';
import { exchangeModule } from './modules/exchange/exchange.module.ts';
import { exportsModule } from './modules/exports/exports.module.ts';
import { redeemExportLink } from './modules/exports/exports.service.ts';
import { forgeModule } from './modules/forge/forge.module.ts';
import { itemsModule } from './modules/items/items.module.ts';
import { leaderboardModule } from './modules/leaderboard/leaderboard.module.ts';
import { appLeaderboardStore } from './modules/leaderboard/leaderboard.redis-store.ts';
import type { LeaderboardStore } from './modules/leaderboard/leaderboard.store.ts';
import { marketModule } from './modules/market/market.module.ts';
import { createMfaDeps, mfaModule } from './modules/mfa/mfa.module.ts';
import { notificationsModule } from './modules/notifications/notifications.module.ts';
import { oversightModule } from './modules/oversight/oversight.module.ts';
import { reportsModule } from './modules/reports/reports.module.ts';
import { settlementsModule } from './modules/settlements/settlements.module.ts';
import { usersModule } from './modules/users/users.module.ts';
import { WEB_DIST_DIR } from './paths.ts';
import { authPlugin } from './plugins/auth.ts';
import { health } from './plugins/health.ts';
import { metrics } from './plugins/metrics.ts';
import { openapi } from './plugins/openapi.ts';
import { rateLimits } from './plugins/rate-limit.ts';
import { requestLog } from './plugins/request-log.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { web } from './plugins/web.ts';
import { websocketPlugin } from './plugins/websocket.ts';
import { type SeedResult, seed } from './seed.ts';
import { type DemoSeed, demoApplies, seedDemo, wantsDemo } from './seed-demo.ts';

/**
 * The log's lines leave in writes of at least this many bytes (about 25 request lines), or after
 * LOG_FLUSH_MS: a write per line cost a busy server's event loop a write call per request.
 */
const LOG_BUFFER_BYTES = 4096;
/** The longest a log line waits in that buffer (milliseconds). */
const LOG_FLUSH_MS = 1000;

/**
 * The process's one log destination, standard output (every app of a process shares it): synchronous
 * writes of LOG_BUFFER_BYTES, what is held written when an app closes and when the process exits.
 */
const logStream = destination({ dest: 1, sync: true, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS });
process.on('exit', () => logStream.flushSync());

/** JWT_SECRET, or one generated once and kept in DATA_DIR (DESIGN §2). */
function jwtSecret(config: Config): string {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  const file = path.resolve(config.DATA_DIR, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.DATA_DIR, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export interface BuiltApp {
  app: FastifyInstance;
  database: Database;
  seeded: SeedResult;
  /** The demo community (seed-demo.ts), or null when there is none. */
  demo: DemoSeed | null;
  /** The kept leaderboard: its store and the job keeping it (`runNow()` in tests). */
  leaderboard: { store: LeaderboardStore; job: PeriodicJob };
  /** The job mailing the notifications members chose to get by e-mail (`runNow()` in tests). */
  notificationMails: PeriodicJob;
}

/**
 * Builds the whole application on `config`: opens (and migrates) the database unless one is given,
 * seeds it, registers every plugin and module. The caller listens or injects.
 */
export async function buildApp(
  config: Config,
  options: { database?: Database; leaderboardStore?: LeaderboardStore } = {},
): Promise<BuiltApp> {
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      readUrl: config.DATABASE_READ_URL,
      listenUrl: config.DATABASE_LISTEN_URL,
      pooler: config.DATABASE_POOLER,
      dataDir: config.DATA_DIR,
      poolSize: config.DB_POOL_SIZE,
    }));
  const { db, readDb } = database;
  const seeded = await seed(db, config);
  const demo = demoApplies(config) ? await seedDemo(db, config, seeded.adminId, wantsDemo(config, seeded.fresh)) : null;
  // ioredis loads only when Redis is configured, so a start without it does not pay for its import.
  const redis = config.REDIS_URL
    ? new (await import('ioredis')).Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2 })
    : null;

  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
      stream: logStream,
    },
    // DESIGN §9: one line per request, written by plugins/request-log.ts, not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.TRUST_PROXY ?? false,
    bodyLimit: 256 * 1024,
  }).withTypeProvider();
  const publicUrl = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRoute', assertAccessDeclared);
  app.setErrorHandler(handleError);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);
  // Fastify runs onClose hooks last-added first: added before any plugin, this one runs after every
  // plugin's own, once their background jobs have stopped and their ticks in flight have ended (added
  // last, it closed the pool under the audit check's first tick on every quick stop).
  app.addHook('onClose', async () => {
    await database.close();
    redis?.disconnect();
    logStream.flushSync();
  });

  // Plugins: external ones, then the app's own; then the modules (STYLE: fastify/demo's order).
  await app.register(requestLog);
  await app.register(securityHeaders, { https: publicUrl.startsWith('https:') });
  await app.register(rateLimits, { redis, apiKeyMax: config.RATE_LIMIT_API_KEY });
  await app.register(openapi, { publicUrl });
  const secret = jwtSecret(config);
  await app.register(authPlugin, {
    db,
    jwtSecret: secret,
    adminMfa: config.ADMIN_MFA,
    redeemLink: (token, path, query) => redeemExportLink(db, token, path, query),
  });
  await app.register(websocketPlugin, { database });
  await app.register(metrics, { database });
  await app.register(health, { database });

  // The modules, each through its root (`modules/<module>/<module>.module.ts`), in the order of their routes.
  const leaderboardStore = options.leaderboardStore ?? appLeaderboardStore(redis, config.DATABASE_URL);
  let leaderboardJob: PeriodicJob | undefined;
  let notificationMails: PeriodicJob | undefined;
  const mfa = createMfaDeps(db, secret, redis, config.SECURITY_HOLD_HOURS);
  await app.register(mfaModule, { deps: mfa });
  await app.register(usersModule, { db, readDb, config, redis, publicUrl, mfa });
  await app.register(leaderboardModule, {
    db,
    readDb,
    store: leaderboardStore,
    started: (job) => {
      leaderboardJob = job;
    },
  });
  await app.register(apikeysModule, { db, secret, mfa });
  await app.register(notificationsModule, {
    db,
    config,
    redis,
    publicUrl,
    started: (job) => {
      notificationMails = job;
    },
  });
  await app.register(exportsModule, { db });
  await app.register(bankModule, { db });
  await app.register(reportsModule, { db, readDb });
  await app.register(settlementsModule, { db, readDb, mfa, config, redis, publicUrl });
  await app.register(oversightModule, { db, readDb });
  await app.register(exchangeModule, { db, readDb });
  await app.register(forgeModule, { db, readDb });
  await app.register(marketModule, { db, readDb });
  await app.register(itemsModule, { db });
  await app.register(chipsModule, { db });
  await app.register(cappModule, { db, publicUrl });
  await app.register(checkoutModule, { db, readDb, config, secret, publicUrl, redis });
  await app.register(balancesModule, { db });

  await app.register(web, { root: config.WEB_DIST ?? WEB_DIST_DIR });
  if (!leaderboardJob) throw new Error('the leaderboard module did not start its job');
  if (!notificationMails) throw new Error('the notifications module did not start its mail job');

  return {
    app,
    database,
    seeded,
    demo,
    leaderboard: { store: leaderboardStore, job: leaderboardJob },
    notificationMails,
  };
}
