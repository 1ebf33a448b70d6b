/**
 * Liveness and readiness (DESIGN §9). `GET /api/health`: `{status: 'ok', instance}` once the
 * database answers, `instance` naming the host and process so a client can tell replicas apart.
 * `GET /api/ready`: 200 only while the database answers and the server is not draining, 503 otherwise:
 * what a load balancer's health check asks. It answers from state, at once: a background probe asks the
 * database every PROBE_INTERVAL_MS, so a check never waits behind request work for a pool connection
 * (a late answer would take a busy but healthy replica out of the balancer). `app.health.drain()`
 * (SIGTERM) turns readiness off while the server goes on serving, so the balancer takes the replica out
 * before its listener closes.
 */
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db/client.ts';
import { UNAVAILABLE_MESSAGE } from '../http/errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    health: {
      /** True once draining started: readiness answers 503 from then on. */
      readonly draining: boolean;
      /** Starts draining (idempotent). */
      drain(): void;
    };
  }
}

/** How long the readiness probe waits for the database before it counts as down (milliseconds). */
export const READY_TIMEOUT_MS = 2_000;
/** How often the readiness probe asks the database (milliseconds, between the end of one and the next). */
export const PROBE_INTERVAL_MS = 1_000;
/** This process among the replicas: host name and process id. */
export const INSTANCE = `${hostname()}/${process.pid}`;

const healthPlugin: FastifyPluginAsync<{ database: Database }> = async (app, { database }) => {
  let draining = false;
  app.decorate('health', {
    get draining() {
      return draining;
    },
    drain() {
      draining = true;
    },
  });
  /** Resolves when the database answers `SELECT 1`; rejects after READY_TIMEOUT_MS or on its error. */
  const ping = async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the database did not answer in time')), READY_TIMEOUT_MS);
    });
    try {
      await Promise.race([database.db.execute(sql`SELECT 1`), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  /** The last probe's outcome: what readiness answers from. */
  let databaseUp = false;
  let closed = false;
  let next: NodeJS.Timeout | undefined;
  const probe = async () => {
    try {
      await ping();
      databaseUp = true;
    } catch {
      databaseUp = false;
    }
    if (!closed) next = setTimeout(probe, PROBE_INTERVAL_MS).unref();
  };
  app.addHook('onReady', async () => {
    // The first answer is known before the server listens; then the probe goes on in the background.
    await probe();
  });
  app.addHook('onClose', async () => {
    closed = true;
    clearTimeout(next);
  });
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Liveness: ok once the database answers, with the replica that answered',
        tags: ['health'],
        response: { 200: z.object({ status: z.literal('ok'), instance: z.string() }) },
      },
    },
    async () => {
      await database.db.execute(sql`SELECT 1`);
      return { status: 'ok' as const, instance: INSTANCE };
    },
  );

  typed.get(
    '/api/ready',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Readiness: 200 while the database answers and the server is not draining',
        tags: ['health'],
        response: {
          200: z.object({ status: z.literal('ready'), instance: z.string() }),
          503: z.object({ message: z.string() }),
        },
      },
    },
    async (_req, reply) => {
      if (draining) return reply.status(503).send({ message: 'This server is shutting down' });
      if (!databaseUp) return reply.status(503).send({ message: UNAVAILABLE_MESSAGE });
      return { status: 'ready' as const, instance: INSTANCE };
    },
  );
};

export const health = fp(healthPlugin, { name: 'health' });
