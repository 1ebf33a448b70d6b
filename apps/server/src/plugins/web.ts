/**
 * Serves the built web app (DESIGN §1: the API server also serves the SPA). Hashed files under
 * `assets/` are immutable and cached for a year; `index.html` is never cached, so a new build reaches
 * every browser on its next load. Files the build precompressed (`.br`, `.gz`, see
 * scripts/compress-dist.mjs) are sent when the browser accepts them. Every SPEC route is a client route
 * of the SPA and gets `index.html`; an unknown `/api` path is a JSON 404.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

const IMMUTABLE = 'public, max-age=31536000, immutable';

const webPlugin: FastifyPluginAsync<{ root: string }> = async (app, { root }) => {
  const hasWeb = existsSync(path.join(root, 'index.html'));
  if (hasWeb) {
    // One wildcard route that looks a file up when asked (a missing one falls through to the handler
    // below), not a route per file of the build: two routes a file, found by a glob of the
    // folder and added one by one at every start, were a large part of a start-up.
    await app.register(fastifyStatic, {
      root,
      wildcard: true,
      index: 'index.html',
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        const hashed = path.relative(root, filePath).split(path.sep)[0] === 'assets';
        res.header('cache-control', hashed ? IMMUTABLE : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' && !request.url.startsWith('/api/') && hasWeb) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ message: 'Not found' });
  });
};

export const web = fp(webPlugin, { name: 'web' });
