/**
 * Security headers (helmet) with the SPA's content security policy. HSTS and
 * `upgrade-insecure-requests` are sent only when the app is published over https (`PUBLIC_URL`): on a
 * LAN deployment over plain http they would make browsers refuse the app.
 *
 * Every `/api` answer carries `Cache-Control: no-store`: sign-in and registration answer session tokens,
 * the key routes API keys, a creator app's sign-in a single-use code, and every member route the member's
 * own data; none of it may stay in a browser's or a proxy's cache. Set for the whole prefix, before any
 * route runs, so errors and a route added tomorrow are covered too (the web's files set their own).
 *
 * Helmet's middleware is built once, at start-up, and run on every request (@fastify/helmet
 * rebuilt it, parsing the policy again, on each request: a visible share of the server's CPU on small reads).
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

const securityHeadersPlugin: FastifyPluginAsync<{ https: boolean }> = async (app, { https }) => {
  const setHeaders = helmet({
    hsts: https ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        upgradeInsecureRequests: https ? [] : null,
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    // Helmet throws what goes wrong (since 8.1) rather than passing it on: the callback only continues.
    setHeaders(request.raw, reply.raw, () => done());
  });
};

export const securityHeaders = fp(securityHeadersPlugin, { name: 'security-headers' });
