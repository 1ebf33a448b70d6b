/**
 * Security headers (helmet) with the SPA's content security policy. HSTS and
 * `upgrade-insecure-requests` are sent only when the app is published over https (`PUBLIC_URL`): on a
 * LAN deployment over plain http they would make browsers refuse the app.
 */
import helmet from '@fastify/helmet';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

const securityHeadersPlugin: FastifyPluginAsync<{ https: boolean }> = async (app, { https }) => {
  await app.register(helmet, {
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
};

export const securityHeaders = fp(securityHeadersPlugin, { name: 'security-headers' });
