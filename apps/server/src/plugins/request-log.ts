/**
 * One log line per request (DESIGN §9): method, route, status and response time in milliseconds, written
 * when the response is sent. Fastify's own "incoming request" / "request completed" pair is turned off
 * in buildApp (`disableRequestLogging`). Server errors log at error level, client errors at info.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

const requestLogPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('onResponse', async (request, reply) => {
    const line = {
      method: request.method,
      route: request.routeOptions.url ?? request.url.split('?')[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (reply.statusCode >= 500) request.log.error(line, 'request');
    else request.log.info(line, 'request');
  });
};

export const requestLog = fp(requestLogPlugin, { name: 'request-log' });
