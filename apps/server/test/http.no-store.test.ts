/**
 * `Cache-Control: no-store` on every /api answer: the ones that carry a session token (register, login, a
 * password change), an API key (Get Key, New Key) or a creator app's code and ids, and every other one,
 * errors included, so no browser or proxy keeps a secret or a member's data.
 */
import type { ApiKeyResponse, AuthResponse } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { declaredRoutes } from '../src/http/access.ts';
import { cappCalls } from './capp.helpers.ts';
import { call, PASSWORD, registerMember, uniqueNick, useTestApp } from './helpers.ts';

const t = useTestApp();
const capp = cappCalls(t, () => creatorApp);
let creatorApp: Awaited<ReturnType<typeof capp.makeCreator>>;

function expectNoStore(res: { statusCode: number; headers: Record<string, unknown>; body: string }, what: string) {
  expect(res.headers['cache-control'], `${what}: ${res.statusCode} ${res.body.slice(0, 80)}`).toBe('no-store');
}

describe('answers that carry a token, a key or a code', () => {
  it('register, login and a password change (session tokens)', async () => {
    const nickname = uniqueNick('ns');
    const reg = await call(t.app, undefined, 'POST', '/api/user/register', {
      nickname,
      email: `${nickname}@example.test`,
      password: PASSWORD,
    });
    expect(reg.statusCode, reg.body).toBe(200);
    expectNoStore(reg, 'register');
    const token = reg.json<AuthResponse>().token;
    const login = await call(t.app, undefined, 'POST', '/api/user/login', {
      nickOrEmail: nickname,
      password: PASSWORD,
    });
    expect(login.statusCode, login.body).toBe(200);
    expectNoStore(login, 'login');
    const changed = await call(t.app, token, 'POST', '/api/user/updateProfile', {
      password: 'N3w!Passw0rd',
      currentPassword: PASSWORD,
    });
    expect(changed.json().token, changed.body).toEqual(expect.any(String));
    expectNoStore(changed, 'updateProfile');
  });

  it('Get Key and New Key (API keys)', async () => {
    const m = await registerMember(t.app, 'nskey');
    const made = await call(t.app, m.token, 'GET', '/api/user/newApiKey');
    expect(made.json<ApiKeyResponse>().apiKey).toEqual(expect.any(String));
    expectNoStore(made, 'newApiKey');
    const shown = await call(t.app, m.token, 'GET', '/api/user/getApiKey');
    expect(shown.json<ApiKeyResponse>().apiKey).toEqual(expect.any(String));
    expectNoStore(shown, 'getApiKey');
  });

  it("a creator app's request, its sign-in URL with the code, and the redeemed code", async () => {
    creatorApp = await capp.makeCreator('nscapp');
    const asked = await capp.ask(creatorApp.key);
    expect(asked.statusCode, asked.body).toBe(200);
    expectNoStore(asked, 'createAuthRequest');
    const member = await registerMember(t.app, 'nsgrant');
    const signedIn = await capp.signIn(member, asked.json().requestId);
    expect(signedIn.json().url, signedIn.body).toContain('code=');
    expectNoStore(signedIn, 'login with cAppAuthRequest');
    const code = new URL(signedIn.json().url).searchParams.get('code') ?? '';
    const redeemed = await capp.redeem(creatorApp.key, code);
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    expectNoStore(redeemed, 'redeemCode');
  });
});

describe('every other /api answer', () => {
  it('is no-store on every declared route, refused or not, and on an unknown one', async () => {
    expect(declaredRoutes.length).toBeGreaterThan(50);
    for (const route of declaredRoutes) {
      const url = route.url.replace(/:[^/]+/g, 'a'.repeat(24));
      const method = route.method as 'GET' | 'POST';
      const res = await call(t.app, undefined, method, url, method === 'POST' ? {} : undefined);
      expectNoStore(res, `${route.method} ${route.url}`);
    }
    expectNoStore(await call(t.app, undefined, 'GET', '/api/no/such/route'), 'unknown route');
  });

  it('leaves the web app its own caching', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.headers['cache-control']).not.toBe('no-store');
  });
});
