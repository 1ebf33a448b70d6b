/**
 * Rate limits (DESIGN §2, §8, §9) with @fastify/rate-limit, its counters in Redis when `REDIS_URL` is set
 * so every replica shares one budget. Two kinds:
 * - per client address, on the routes that ask for it (sign-in, register, wallet nonces, mails):
 *   `perIpLimit(max)`, 15 minutes, an IPv6 client counted by its /64 (`clientAddressKey`);
 * - per API key, on every route: a request carrying `x-api-key` (and no bearer token) counts against its
 *   key's budget of `apiKeyMax` requests a minute, whatever the route. Requests without a key pass this
 *   one untouched (signed-in browsers and the benchmarks are not limited per request);
 * - per member, on the routes that ask for it (the CSV exports): `perMemberLimit(name, max, window)`.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { hashApiKey } from '../lib/api-key-crypto.ts';
import { clientAddressKey } from '../lib/client-address.ts';

/** The `x-api-key` a request authenticates with (a bearer token wins over it, as in plugins/auth.ts). */
function apiKeyOf(req: FastifyRequest): string | null {
  const key = req.headers['x-api-key'];
  return typeof key === 'string' && key !== '' && !req.headers.authorization ? key : null;
}

/**
 * A route's `config.rateLimit` for `max` requests per client address per 15 minutes (DESIGN §2
 * `RATE_LIMIT_AUTH`), an IPv6 address counted by its /64 (`clientAddressKey`). It replaces the per-key rule's key and exemption (an empty allow list) on that route.
 */
export function perIpLimit(max: number) {
  return {
    max,
    timeWindow: '15 minutes',
    keyGenerator: (req: FastifyRequest) => clientAddressKey(req.ip),
    allowList: [] as string[],
  };
}

/**
 * A route's `config.rateLimit` for `max` requests per signed-in member per `timeWindow` (e.g. '1 minute'),
 * each route its own budget, its keys named `name` (DESIGN §11.6: the CSV exports). Counted after authentication
 * (the `preHandler` hook), so the member is known whatever the credentials (a session, a key, a download
 * link); a request without a member is never counted (the auth hook refused it already).
 */
export function perMemberLimit(name: string, max: number, timeWindow: string) {
  return {
    max,
    timeWindow,
    hook: 'preHandler' as const,
    keyGenerator: (req: FastifyRequest) => `${name}:${req.auth?.id ?? clientAddressKey(req.ip)}`,
    allowList: [] as string[],
  };
}

/** CSV exports a member may start per minute on each export route (DESIGN §11.6: rate limited per member). */
export const CSV_EXPORTS_PER_MINUTE = 10;

/** The `config.rateLimit` of a CSV export route: `CSV_EXPORTS_PER_MINUTE` per member. */
export const csvExportLimit = () => perMemberLimit('csv-export', CSV_EXPORTS_PER_MINUTE, '1 minute');

const rateLimitPlugin: FastifyPluginAsync<{ redis: Redis | null; apiKeyMax: number }> = async (
  app,
  { redis, apiKeyMax },
) => {
  await app.register(rateLimit, {
    global: true,
    max: apiKeyMax,
    timeWindow: '1 minute',
    // Counted per key, by its hash: the key itself never reaches Redis.
    keyGenerator: (req) => {
      const key = apiKeyOf(req);
      return key ? `api-key:${hashApiKey(key)}` : clientAddressKey(req.ip);
    },
    allowList: (req) => apiKeyOf(req) === null,
    ...(redis ? { redis } : {}),
  });
};

export const rateLimits = fp(rateLimitPlugin, { name: 'rate-limits' });
