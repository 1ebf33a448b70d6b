/**
 * Secrets never leave the server: no response carries a password hash, an API key hash or
 * sealed key, a mail token, or a session token other than the one it just issued; the API key itself
 * shows only on Get Key and New Key.
 */
import type { AuthResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRoutes } from '../src/http/access.ts';
import { call, makeApp, PASSWORD, registerMember, useTestApp } from './helpers.ts';
import { type MailCatcher, startMailCatcher } from './mail-catcher.ts';

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await catcher?.close();
});
const t = useTestApp({}, { build: () => makeApp({ SMTP_URL: catcher.url }) });

/** A concrete path for a route: `:params` become a well-formed object id. */
function pathOf(url: string): string {
  return url.replace(/:[^/]+/g, 'a'.repeat(24));
}

describe('responses', () => {
  it('never carry a hash, a sealed key, a mail token or another session', async () => {
    const m = await registerMember(t.app, 'secret');
    const secondLogin = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { nickOrEmail: m.nickname, password: PASSWORD },
    });
    const second = secondLogin.json<AuthResponse>().token;
    const apiKey = (await call(t.app, m.token, 'GET', '/api/user/newApiKey')).json<{ apiKey: string }>().apiKey;
    await call(t.app, m.token, 'POST', '/api/user/sendVerificationEmail', {});
    const verifyLink = (await catcher.next(m.email)).link ?? '';
    await call(t.app, undefined, 'POST', '/api/user/forgotPassword', { email: m.email });
    const resetLink = (await catcher.next(m.email)).link ?? '';
    const res = await t.built.database.db.execute(
      sql`SELECT u.password_hash, k.secret_hash AS api_key_hash, k.sealed AS api_key_sealed
          FROM users u JOIN api_keys k ON k.user_id = u.id AND k.revoked_at IS NULL WHERE u.id = ${m.id}`,
    );
    const stored = res.rows[0] as { password_hash: string; api_key_hash: string; api_key_sealed: string };
    const never = {
      'password hash': stored.password_hash,
      'API key hash': stored.api_key_hash,
      'sealed API key': stored.api_key_sealed,
      'verify token': verifyLink.split('/').pop() ?? '',
      'reset token': resetLink.split('/').pop() ?? '',
      'the other session': second,
    };
    for (const value of Object.values(never)) expect(value.length).toBeGreaterThan(40);

    const answers: Array<[string, LightMyRequestResponse]> = [];
    // Every member GET but the two that replace or remove the key (the sweep would change what it checks).
    const changesKey = (url: string) => url.endsWith('/newApiKey') || url.endsWith('/disableApiKeyAccess');
    for (const route of declaredRoutes.filter(
      (r) => r.method === 'GET' && r.access !== 'admin' && !changesKey(r.url),
    )) {
      answers.push([`GET ${route.url}`, await call(t.app, m.token, 'GET', pathOf(route.url))]);
    }
    const posts: Array<[string, object]> = [
      ['/api/user/updateProfile', { isAnonymous: true }],
      ['/api/bank/transactions', { paging: { limit: 10, page: 1 } }],
      ['/api/user/sendVerificationEmail', {}],
    ];
    for (const [url, body] of posts) answers.push([`POST ${url}`, await call(t.app, m.token, 'POST', url, body)]);
    answers.push([
      'POST /api/user/login',
      await t.app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { nickOrEmail: m.email, password: PASSWORD },
      }),
    ]);
    expect(answers.length).toBeGreaterThan(8);

    for (const [label, answer] of answers) {
      for (const [what, value] of Object.entries(never)) {
        expect(answer.body.includes(value), `${label} carries the ${what}`).toBe(false);
      }
      const keyAllowed = label === 'GET /api/user/getApiKey';
      expect(answer.body.includes(apiKey), `${label} carries the API key`).toBe(keyAllowed);
      expect(answer.body.includes(m.token), `${label} carries the caller's session token`).toBe(false);
    }
  });
});
