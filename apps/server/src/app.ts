/**
 * buildApp(): plugins, then modules, then one error handler (STYLE: fastify/demo). No listen here.
 */

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { z } from 'zod';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { type SeedResult, seed } from './db/seed.ts';
import { assertAccessDeclared } from './http/access.ts';
import { handleError } from './http/errors.ts';
import { memoryFailureCounter, redisFailureCounter } from './lib/failure-counter.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { balancesLive } from './modules/balances/balances.live.ts';
import { bankRoutes } from './modules/bank/bank.routes.ts';
import { exchangeRoutes } from './modules/exchange/exchange.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { authPlugin } from './plugins/auth.ts';
import { websocketPlugin } from './plugins/websocket.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const defaultWebDist = path.resolve(here, '../../web/dist');

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
}

/**
 * Builds the whole application on `config`: opens (and migrates) the database unless one is given,
 * seeds it, registers every plugin and module. The caller listens or injects.
 */
export async function buildApp(config: Config, options: { database?: Database } = {}): Promise<BuiltApp> {
  const database =
    options.database ??
    (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: config.DB_POOL_SIZE }));
  const { db } = database;
  const seeded = await seed(db, config);
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2 }) : null;

  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
    },
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 256 * 1024,
  }).withTypeProvider();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRoute', assertAccessDeclared);
  app.setErrorHandler(handleError);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
      },
    },
  });
  await app.register(rateLimit, { global: false, ...(redis ? { redis } : {}) });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Starlight API', version: '0.0.1', description: 'The bank, accounts and exchange of Starlight.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  await app.register(authPlugin, { db, jwtSecret: jwtSecret(config) });
  await app.register(websocketPlugin, { database });

  const failures = redis ? redisFailureCounter(redis) : memoryFailureCounter();
  await app.register(usersRoutes, {
    prefix: '/api/user',
    deps: { db, app, failures, maxLoginFailures: config.RATE_LIMIT_LOGIN_FAILURES },
    authRateLimit: config.RATE_LIMIT_AUTH,
  });
  await app.register(bankRoutes, { prefix: '/api/bank', db });
  await app.register(auditRoutes, { prefix: '/api/audit', db });
  await app.register(exchangeRoutes, { prefix: '/api/cex', db });
  await app.register(balancesLive, { db });

  app.get(
    '/api/health',
    { config: { access: 'public' }, schema: { response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => {
      await database.db.execute('SELECT 1' as never);
      return { status: 'ok' as const };
    },
  );

  const webDist = config.WEB_DIST ?? defaultWebDist;
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, maxAge: '1h', index: false });
  }
  // Every SPEC route is a client route of the SPA: serve index.html; unknown /api paths are JSON 404s.
  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' && !request.url.startsWith('/api/') && hasWeb) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ message: 'Not found' });
  });

  app.addHook('onClose', async () => {
    await database.close();
    redis?.disconnect();
  });
  return { app, database, seeded };
}
