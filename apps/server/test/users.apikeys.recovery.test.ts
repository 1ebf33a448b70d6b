/**
 * API keys and the account (DESIGN §8): a key never reaches the routes that manage the account (they
 * declare `sessionOnly`), a password reset revokes the keys, a password change revokes them unless the
 * member keeps them.
 */
import { randomBytes } from 'node:crypto';
import type { ApiKeyResponse, UpdateProfileResponse, User } from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { declaredRoutes, SESSION_ONLY_MESSAGE } from '../src/http/access.ts';
import { hashMailToken } from '../src/lib/mailer.ts';
import { insertMailToken } from '../src/modules/users/email.queries.ts';
import { call, type Member, PASSWORD, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const NEW_PASSWORD = 'N3w!Passw0rd';

function withKey(app: FastifyInstance, key: string, url: string, method: 'GET' | 'POST' = 'GET', payload?: object) {
  return app.inject({ method, url, headers: { 'x-api-key': key }, ...(payload ? { payload } : {}) });
}

async function newKey(m: Member): Promise<string> {
  const res = await call(t.app, m.token, 'GET', '/api/user/newApiKey');
  expect(res.statusCode, res.body).toBe(200);
  const { apiKey } = res.json<ApiKeyResponse>();
  if (!apiKey) throw new Error('no key');
  return apiKey;
}

async function nicknameOf(m: Member): Promise<string> {
  const me = await call(t.app, m.token, 'GET', '/api/user/me');
  expect(me.statusCode, me.body).toBe(200);
  return me.json<{ user: User }>().user.nickname;
}

describe('routes that manage the account take a session only', () => {
  it('declares sessionOnly on logout, updateProfile, the key routes, sendVerificationEmail and sessions', () => {
    const sessionOnly = declaredRoutes.filter((r) => r.sessionOnly).map((r) => `${r.method} ${r.url}`);
    expect(sessionOnly).toEqual(
      expect.arrayContaining([
        'POST /api/user/logout',
        'POST /api/user/updateProfile',
        'GET /api/user/getApiKey',
        'GET /api/user/newApiKey',
        'GET /api/user/disableApiKeyAccess',
        'POST /api/user/sendVerificationEmail',
        'GET /api/user/sessions',
        'POST /api/user/sessions/end',
        'POST /api/user/sessions/endOthers',
      ]),
    );
  });

  it('answers every sessionOnly route 403 to a key, and the key still works elsewhere', async () => {
    const m = await registerMember(t.app, 'sonly');
    const key = await newKey(m);
    for (const route of declaredRoutes.filter((r) => r.sessionOnly)) {
      const method = route.method as 'GET' | 'POST';
      const res = await withKey(t.app, key, route.url, method, method === 'POST' ? {} : undefined);
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json().message).toBe(SESSION_ONLY_MESSAGE);
    }
    expect((await withKey(t.app, key, '/api/user/me')).statusCode).toBe(200);
    expect((await call(t.app, m.token, 'GET', '/api/user/me')).statusCode).toBe(200);
  });

  it('a key cannot log the owner out, rename the account or change its password', async () => {
    const m = await registerMember(t.app, 'thief');
    const key = await newKey(m);
    expect((await withKey(t.app, key, '/api/user/logout', 'POST')).statusCode).toBe(403);
    const rename = await withKey(t.app, key, '/api/user/updateProfile', 'POST', {
      nickname: `x${m.nickname}`.slice(0, 32),
    });
    expect(rename.statusCode).toBe(403);
    const password = await withKey(t.app, key, '/api/user/updateProfile', 'POST', {
      password: NEW_PASSWORD,
      currentPassword: PASSWORD,
    });
    expect(password.statusCode).toBe(403);
    // The owner's session, nickname and password are untouched.
    expect(await nicknameOf(m)).toBe(m.nickname);
    const login = await call(t.app, undefined, 'POST', '/api/user/login', {
      nickOrEmail: m.nickname,
      password: PASSWORD,
    });
    expect(login.statusCode, login.body).toBe(200);
  });
});

describe('keys and account recovery', () => {
  it('a password reset revokes the key', async () => {
    const m = await registerMember(t.app, 'reset');
    const key = await newKey(m);
    const token = randomBytes(144).toString('base64url');
    await insertMailToken(t.built.database.db, {
      tokenHash: hashMailToken(token),
      userId: m.id,
      purpose: 'reset',
      email: m.email,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const res = await call(t.app, undefined, 'POST', '/api/user/resetPassword', { token, password: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect((await withKey(t.app, key, '/api/user/me')).statusCode).toBe(401);
  });

  it('a password change revokes the key by default', async () => {
    const m = await registerMember(t.app, 'chg');
    const key = await newKey(m);
    const res = await call(t.app, m.token, 'POST', '/api/user/updateProfile', {
      password: NEW_PASSWORD,
      currentPassword: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await withKey(t.app, key, '/api/user/me')).statusCode).toBe(401);
    const token = res.json<UpdateProfileResponse>().token;
    expect((await call(t.app, token, 'GET', '/api/user/getApiKey')).json<ApiKeyResponse>().apiKey).toBeNull();
  });

  it('a password change revokes the key with revokeApiKeys: true and keeps it with false', async () => {
    const a = await registerMember(t.app, 'rev');
    const keyA = await newKey(a);
    const revoked = await call(t.app, a.token, 'POST', '/api/user/updateProfile', {
      password: NEW_PASSWORD,
      currentPassword: PASSWORD,
      revokeApiKeys: true,
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await withKey(t.app, keyA, '/api/user/me')).statusCode).toBe(401);

    const b = await registerMember(t.app, 'keep');
    const keyB = await newKey(b);
    const kept = await call(t.app, b.token, 'POST', '/api/user/updateProfile', {
      password: NEW_PASSWORD,
      currentPassword: PASSWORD,
      revokeApiKeys: false,
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await withKey(t.app, keyB, '/api/user/me')).statusCode).toBe(200);
  });

  it('refuses revokeApiKeys without a new password and changes nothing', async () => {
    const m = await registerMember(t.app, 'norev');
    const key = await newKey(m);
    const res = await call(t.app, m.token, 'POST', '/api/user/updateProfile', {
      isAnonymous: true,
      revokeApiKeys: true,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"revokeApiKeys" is allowed only with a new "password"');
    expect((await withKey(t.app, key, '/api/user/me')).statusCode).toBe(200);
    const me = await call(t.app, m.token, 'GET', '/api/user/me');
    expect(me.json<{ user: User }>().user.isAnonymous).toBe(false);
  });

  it('other profile changes keep the key', async () => {
    const m = await registerMember(t.app, 'other');
    const key = await newKey(m);
    const res = await call(t.app, m.token, 'POST', '/api/user/updateProfile', { isAnonymous: true });
    expect(res.statusCode, res.body).toBe(200);
    expect((await withKey(t.app, key, '/api/user/me')).statusCode).toBe(200);
  });
});
