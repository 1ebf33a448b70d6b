/**
 * The OpenAPI document (`/api/docs/json`) and its UI (`/api/docs`), generated from the routes' shared
 * Zod schemas (DESIGN §3). For client authors every operation carries an `operationId` (SPEC's call
 * name: the path's last segment unless the route names one), a summary, a tag per area, the security
 * schemes it takes, and its error responses with the one error body, derived here from the route's
 * declared access, body and rate limit so that no route repeats them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { errorResponse } from '@starlight/shared';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Access } from '../http/access.ts';

const ERROR_BODY = z.toJSONSchema(errorResponse, { target: 'openapi-3.0' });

/**
 * Swagger UI's pages and logo, read from its package: the plugin is bundled with the server, so it cannot
 * find them beside itself (its own default).
 */
const SWAGGER_UI_STATIC = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')),
  'static',
);

/** What each error status means on this API (DESIGN §3). */
const ERRORS: Record<string, string> = {
  '400': 'Validation failed: `message` is the first field error, `errors` lists every field',
  '401': 'No or bad credentials (`Not authorized`) or an expired session (`Token expired`)',
  '403': 'Forbidden by role or account state',
  '404': 'An object the request names does not exist (or is not yours)',
  '409': 'A business rule refused: insufficient funds, frozen currency or pair, wrong state',
  '429': 'Rate limited',
};

/** SPEC's call name of a route: the last segment of its path (`/api/bank/p2pTransfer` -> `p2pTransfer`). */
export function operationIdOf(method: string, url: string): string {
  const segments = url.split('/').filter((s) => s && s !== 'api');
  const last = segments.at(-1) ?? 'root';
  if (segments.length > 2) {
    // Nested paths such as /api/forge/recipes/create: verb first, then the collection (createRecipes).
    const collection = segments.at(-2) ?? '';
    return `${last}${collection.charAt(0).toUpperCase()}${collection.slice(1)}`;
  }
  return method === 'GET' && !/^(get|new|disable)/.test(last)
    ? `get${last.charAt(0).toUpperCase()}${last.slice(1)}`
    : last;
}

interface RouteDoc {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown;
  response?: Record<string, unknown>;
  body?: unknown;
  hide?: boolean;
}

const openapiPlugin: FastifyPluginAsync<{ publicUrl: string }> = async (app, { publicUrl }) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Starlight API',
        version: '0.0.1',
        description: 'The bank, accounts and exchange of Starlight. Amounts are decimal strings in currency units.',
        license: { name: 'Proprietary', url: `${publicUrl}/` },
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // DESIGN §8: a member's API key, on member and creator routes (never admin ones, nor `sessionOnly` ones).
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        },
      },
      security: [{ bearer: [] }],
    },
    // Named schemas (the recursive ItemData) become components the operations refer to.
    transformObject: jsonSchemaTransformObject,
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const { route, url } = input;
      if (!url.startsWith('/api/')) return out;
      const schema = out.schema as RouteDoc;
      const config = (route.config ?? {}) as { access?: Access; sessionOnly?: boolean; rateLimit?: unknown };
      const access = config.access ?? 'public';
      const method = [route.method].flat()[0] ?? 'GET';
      schema.operationId ??= operationIdOf(method, url);
      schema.tags ??= [url.split('/')[2] ?? 'api'];
      // An API key never reaches an admin route nor one that manages the account (`sessionOnly`).
      schema.security =
        access === 'public'
          ? []
          : access === 'admin' || config.sessionOnly
            ? [{ bearer: [] }]
            : [{ bearer: [] }, { apiKey: [] }];
      const response: Record<string, unknown> = { ...(schema.response ?? {}) };
      delete response['4xx'];
      const statuses: string[] = [];
      if (schema.body) statuses.push('400', '404');
      if (access !== 'public') statuses.push('401');
      if (access === 'admin' || access === 'creator' || config.sessionOnly) statuses.push('403');
      if (method === 'POST' && access !== 'public') statuses.push('409');
      if (config.rateLimit) statuses.push('429');
      for (const status of statuses) {
        response[status] = { description: ERRORS[status], content: { 'application/json': { schema: ERROR_BODY } } };
      }
      schema.response = response;
      return out;
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    baseDir: SWAGGER_UI_STATIC,
    logo: { type: 'image/svg+xml', content: readFileSync(path.join(SWAGGER_UI_STATIC, 'logo.svg')) },
  });
};

export const openapi = fp(openapiPlugin, { name: 'openapi' });
