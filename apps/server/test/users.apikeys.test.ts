/**
 * API keys (DESIGN §8): make, show, renew and disable a key; `x-api-key` on member routes,
 * never on admin ones; no key in a query string; no usable key in the database; limits per key.
 */
import type { ApiKeyResponse, TransactionsResponse, User } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { call, type Member, mint, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();

/** A GET with an `x-api-key` header (and nothing else). */
function withKey(app: FastifyInstance, key: string, url: string, method: 'GET' | 'POST' = 'GET', payload?: object) {
  return app.inject({ method, url, headers: { 'x-api-key': key }, ...(payload ? { payload } : {}) });
}

async function newKey(app: FastifyInstance, m: Member): Promise<string> {
  const res = await call(app, m.token, 'GET', '/api/user/newApiKey');
  expect(res.statusCode, res.body).toBe(200);
  const { apiKey } = res.json<ApiKeyResponse>();
  if (!apiKey) throw new Error('no key');
  return apiKey;
}

describe('making and showing a key', () => {
  it('has no key at first: {apiKey: null}', async () => {
    const m = await registerMember(t.app, 'nokey');
    const res = await call(t.app, m.token, 'GET', '/api/user/getApiKey');
    expect(res.statusCode).toBe(200);
    expect(res.json<ApiKeyResponse>().apiKey).toBeNull();
  });

  it('makes a key of at least 128 bits that signs the member in; Get Key shows the same key', async () => {
    const m = await registerMember(t.app, 'key');
    const key = await newKey(t.app, m);
    // sl_ and base64url of 32 bytes: 256 bits.
    expect(key).toMatch(/^sl_[A-Za-z0-9_-]{43}$/);
    const me = await withKey(t.app, key, '/api/user/me');
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json<{ user: User }>().user.nickname).toBe(m.nickname);
    const shown = await call(t.app, m.token, 'GET', '/api/user/getApiKey');
    expect(shown.json<ApiKeyResponse>().apiKey).toBe(key);
    expect(me.body).not.toContain(key);
  });

  it('a new key revokes the old one at once', async () => {
    const m = await registerMember(t.app, 'renew');
    const first = await newKey(t.app, m);
    const second = await newKey(t.app, m);
    expect(second).not.toBe(first);
    expect((await withKey(t.app, first, '/api/user/me')).statusCode).toBe(401);
    expect((await withKey(t.app, second, '/api/user/me')).statusCode).toBe(200);
  });

  it('New Key speaks of an old key only when one was replaced', async () => {
    const m = await registerMember(t.app, 'firstkey');
    const message = async () => {
      const res = await call(t.app, m.token, 'GET', '/api/user/newApiKey');
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ApiKeyResponse>().message;
    };
    expect(await message()).toBe('Your new API key is ready');
    expect(await message()).toBe('Your new API key is ready; the old one no longer works');
    expect((await call(t.app, m.token, 'GET', '/api/user/disableApiKeyAccess')).statusCode).toBe(200);
    expect(await message()).toBe('Your new API key is ready');
  });

  it('disabling removes the key: it gets 401 and Get Key answers null', async () => {
    const m = await registerMember(t.app, 'disable');
    const key = await newKey(t.app, m);
    const res = await call(t.app, m.token, 'GET', '/api/user/disableApiKeyAccess');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'API key access disabled' });
    expect((await withKey(t.app, key, '/api/user/me')).statusCode).toBe(401);
    expect((await call(t.app, m.token, 'GET', '/api/user/getApiKey')).json<ApiKeyResponse>().apiKey).toBeNull();
  });

  it('keys are managed from a session, not with a key', async () => {
    const m = await registerMember(t.app, 'mgmt');
    const key = await newKey(t.app, m);
    for (const url of ['/api/user/getApiKey', '/api/user/newApiKey', '/api/user/disableApiKeyAccess']) {
      expect((await withKey(t.app, key, url)).statusCode, url).toBe(403);
    }
    expect((await withKey(t.app, key, '/api/user/me')).statusCode).toBe(200);
  });

  it('needs a session', async () => {
    for (const url of ['/api/user/getApiKey', '/api/user/newApiKey', '/api/user/disableApiKeyAccess']) {
      expect((await call(t.app, undefined, 'GET', url)).statusCode, url).toBe(401);
    }
  });
});

describe('what a key may do', () => {
  it('works on a member POST and reads only its own member’s data', async () => {
    const a = await registerMember(t.app, 'ka');
    const b = await registerMember(t.app, 'kb');
    await mint(t.app, t.admin, a.nickname, 1, '10');
    await mint(t.app, t.admin, b.nickname, 1, '20');
    const key = await newKey(t.app, a);
    const res = await withKey(t.app, key, '/api/bank/transactions', 'POST', { paging: { limit: 10, page: 1 } });
    expect(res.statusCode, res.body).toBe(200);
    const { txs } = res.json<TransactionsResponse>();
    expect(txs.length).toBeGreaterThan(0);
    for (const tx of txs) expect([tx.sender?.nickname, tx.recipient?.nickname]).toContain(a.nickname);
    expect(res.body).not.toContain(b.nickname);
  });

  it('never works on an admin route, even an admin’s key', async () => {
    const key = await newKey(t.app, t.admin);
    const res = await withKey(t.app, key, '/api/bank/alltransactions', 'POST', { paging: { limit: 10, page: 1 } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('API keys cannot be used on admin routes');
    expect((await withKey(t.app, key, '/api/user/me')).statusCode).toBe(200);
  });

  it.each(['apiKey', 'api_key', 'x-api-key', 'APIKEY'])(
    'refuses a key given in the query string as %s',
    async (name) => {
      const m = await registerMember(t.app, 'query');
      const key = await newKey(t.app, m);
      const res = await t.app.inject({ method: 'GET', url: `/api/user/me?${name}=${encodeURIComponent(key)}` });
      expect(res.statusCode).toBe(401);
      // Even beside valid credentials: a key in a URL is a leaked key.
      const both = await t.app.inject({
        method: 'GET',
        url: `/api/user/me?${name}=${encodeURIComponent(key)}`,
        headers: { authorization: `Bearer ${m.token}` },
      });
      expect(both.statusCode).toBe(401);
    },
  );

  it('lets a bearer token win when both are sent, even beside a wrong key', async () => {
    const a = await registerMember(t.app, 'both');
    const b = await registerMember(t.app, 'both');
    const keyA = await newKey(t.app, a);
    const headers = { authorization: `Bearer ${b.token}`, 'x-api-key': keyA };
    const me = await t.app.inject({ method: 'GET', url: '/api/user/me', headers });
    expect(me.statusCode).toBe(200);
    expect(me.json<{ user: User }>().user.nickname).toBe(b.nickname);
    const wrong = { authorization: `Bearer ${b.token}`, 'x-api-key': 'sl_not-a-key' };
    expect((await t.app.inject({ method: 'GET', url: '/api/user/me', headers: wrong })).statusCode).toBe(200);
  });

  it('does not lock a caller out of public routes with a wrong key', async () => {
    expect((await withKey(t.app, 'sl_not-a-key', '/api/bank/currencies')).statusCode).toBe(200);
  });

  it('refuses an unknown key and a deactivated member’s key with 401', async () => {
    const m = await registerMember(t.app, 'deact');
    const key = await newKey(t.app, m);
    expect((await withKey(t.app, `${key}x`, '/api/user/me')).statusCode).toBe(401);
    await t.built.database.db.execute(sql`UPDATE users SET is_active = false WHERE id = ${m.id}`);
    expect((await withKey(t.app, key, '/api/user/me')).statusCode).toBe(401);
  });

  it('keeps no usable key in the database: a hash and a sealed copy only', async () => {
    const m = await registerMember(t.app, 'leak');
    const key = await newKey(t.app, m);
    const res = await t.built.database.db.execute(sql`SELECT * FROM api_keys WHERE user_id = ${m.id}`);
    const row = res.rows[0] as Record<string, unknown>;
    expect(JSON.stringify(row)).not.toContain(key.slice(11));
    // Neither stored form works as a key.
    for (const stored of [row.secret_hash, row.sealed]) {
      expect((await withKey(t.app, String(stored), '/api/user/me')).statusCode).toBe(401);
    }
    const me = await call(t.app, m.token, 'GET', '/api/user/me');
    expect(me.body).not.toContain(String(row.secret_hash));
    expect(me.body).not.toContain(String(row.sealed));
  });
});

describe('limits per key', () => {
  const limited = useTestApp({ RATE_LIMIT_API_KEY: '3' });

  it('answers 429 past the per-key budget, while another key and sessions go on', async () => {
    const a = await registerMember(limited.app, 'rla');
    const b = await registerMember(limited.app, 'rlb');
    const keyA = await newKey(limited.app, a);
    const keyB = await newKey(limited.app, b);
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await withKey(limited.app, keyA, '/api/user/me')).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    // The budget is the key's, whatever the route.
    expect((await withKey(limited.app, keyA, '/api/bank/currencies')).statusCode).toBe(429);
    expect((await withKey(limited.app, keyB, '/api/user/me')).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await call(limited.app, a.token, 'GET', '/api/user/me')).statusCode).toBe(200);
  });
});
