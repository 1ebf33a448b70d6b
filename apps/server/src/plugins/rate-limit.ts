/**
 * Rate limits (DESIGN §2, §9): @fastify/rate-limit, off by default and switched on per route (sign-in
 * and register), its counters in Redis when `REDIS_URL` is set so every replica shares one budget.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';

const rateLimitPlugin: FastifyPluginAsync<{ redis: Redis | null }> = async (app, { redis }) => {
  await app.register(rateLimit, { global: false, ...(redis ? { redis } : {}) });
};

export const rateLimits = fp(rateLimitPlugin, { name: 'rate-limits' });
