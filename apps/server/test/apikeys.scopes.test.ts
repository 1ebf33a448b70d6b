/**
 * Scoped API keys (DESIGN §11.2): create, list and revoke; bad input changes nothing; every route a key can
 * reach checks its scope; allowed addresses; expiry and revocation (seen at once by a second server);
 * last-used times moved coarsely; an admin sees and revokes a member's keys (admin log 43).
 */
import type { ApiKeyScope, ApiKeysResponse, CreateApiKeyResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { assertAccessDeclared, declaredRoutes } from '../src/http/access.ts';
import { call, type Member, makeApp, registerMember, useTestApp, withRole } from './helpers.ts';

const t = useTestApp();
const ALL: ApiKeyScope[] = ['read', 'trade', 'transfer', 'withdraw'];

function create(m: Member, body: Record<string, unknown>, app: FastifyInstance = t.app) {
  return call(app, m.token, 'POST', '/api/user/apiKeys/create', body);
}

async function makeKey(m: Member, body: Record<string, unknown> = {}): Promise<CreateApiKeyResponse> {
  const res = await create(m, { name: 'bot', scopes: ['read'], ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CreateApiKeyResponse>();
}

function withKey(key: string, url = '/api/user/me', opts: { app?: FastifyInstance; from?: string } = {}) {
  return (opts.app ?? t.app).inject({
    method: 'GET',
    url,
    headers: { 'x-api-key': key },
    ...(opts.from ? { remoteAddress: opts.from } : {}),
  });
}

async function keysOf(m: Member) {
  const res = await call(t.app, m.token, 'GET', '/api/user/apiKeys');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ApiKeysResponse>().apiKeys;
}

async function storedRows(userId: string): Promise<number> {
  const res = await t.built.database.db.execute(sql`SELECT count(*)::int AS n FROM api_keys WHERE user_id = ${userId}`);
  return (res.rows[0] as { n: number }).n;
}

describe('making, listing and revoking keys', () => {
  it('shows the secret once, lists the key without it, keeps only its hash', async () => {
    const m = await registerMember(t.app, 'ak');
    const made = await makeKey(m, { name: 'Trading bot', scopes: ['read', 'trade'], allowedIps: [' 10.1.2.3/8 '] });
    expect(made.secret).toMatch(/^sl_[A-Za-z0-9_-]{43}$/);
    expect(made.apiKey).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Trading bot',
      prefix: made.secret.slice(0, 11),
      scopes: ['read', 'trade'],
      allowedIps: ['10.0.0.0/8'],
      expiresAt: null,
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    const list = await call(t.app, m.token, 'GET', '/api/user/apiKeys');
    expect(list.json<ApiKeysResponse>().apiKeys).toEqual([made.apiKey]);
    expect(list.body).not.toContain(made.secret);
    const res = await t.built.database.db.execute(sql`SELECT * FROM api_keys WHERE id = ${made.apiKey._id}`);
    expect(JSON.stringify(res.rows)).not.toContain(made.secret.slice(11));
    expect((res.rows[0] as { sealed: string | null }).sealed).toBeNull();

    const revoked = await call(t.app, m.token, 'POST', '/api/user/apiKeys/revoke', { _id: made.apiKey._id });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toEqual({ message: 'API key Trading bot revoked' });
    expect(await keysOf(m)).toEqual([]);
  });

  it('manages keys from a session only', async () => {
    const m = await registerMember(t.app, 'aks');
    const { secret, apiKey } = await makeKey(m, { scopes: ALL });
    const headers = { 'x-api-key': secret };
    for (const [method, url, payload] of [
      ['GET', '/api/user/apiKeys', undefined],
      ['POST', '/api/user/apiKeys/create', { name: 'x', scopes: ['read'] }],
      ['POST', '/api/user/apiKeys/revoke', { _id: apiKey._id }],
    ] as const) {
      expect((await call(t.app, undefined, method, url, payload, headers)).statusCode, url).toBe(403);
    }
    expect(await storedRows(m.id)).toBe(1);
  });
});

describe('bad input changes nothing', () => {
  let m: Member;
  beforeAll(async () => {
    m = await registerMember(t.app, 'akbad');
  });

  it.each([
    [
      { name: 'x', scopes: ['read', 'admin'] },
      'Unknown scope "admin": a scope is one of read, trade, transfer, withdraw',
    ],
    [{ name: 'x', scopes: [] }, undefined],
    [{ name: 'x', scopes: ['read'], allowedIps: ['10.0.0.300'] }, '"10.0.0.300" is not an IP address or CIDR range'],
    [{ name: 'x', scopes: ['read'], allowedIps: ['10.0.0.0/33'] }, '"10.0.0.0/33" is not an IP address or CIDR range'],
    [
      { name: 'x', scopes: ['read'], allowedIps: ['2001:db8::/129'] },
      '"2001:db8::/129" is not an IP address or CIDR range',
    ],
    [{ name: 'x', scopes: ['read'], allowedIps: ['127.1'] }, '"127.1" is not an IP address or CIDR range'],
    [{ name: 'x', scopes: ['read'], expiresAt: '2020-01-01T00:00:00Z' }, 'Expiry must be in the future'],
    [{ name: '', scopes: ['read'] }, undefined],
  ])('refuses %j with 400', async (body, message) => {
    const res = await create(m, body);
    expect(res.statusCode, res.body).toBe(400);
    if (message) expect(res.json().message).toBe(message);
    expect(await storedRows(m.id)).toBe(0);
  });

  it("answers 404 for another member's key and leaves it working", async () => {
    const owner = await registerMember(t.app, 'akown');
    const { secret, apiKey } = await makeKey(owner);
    const res = await call(t.app, m.token, 'POST', '/api/user/apiKeys/revoke', { _id: apiKey._id });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('API key not found');
    expect((await withKey(secret)).statusCode).toBe(200);
    const again = await call(t.app, owner.token, 'POST', '/api/user/apiKeys/revoke', { _id: apiKey._id });
    expect(again.statusCode).toBe(200);
    const twice = await call(t.app, owner.token, 'POST', '/api/user/apiKeys/revoke', { _id: apiKey._id });
    expect(twice.statusCode).toBe(404);
  });

  it('refuses an eleventh live key with 409, the Default key counted too', async () => {
    const full = await registerMember(t.app, 'akfull');
    for (let i = 0; i < 9; i++) await makeKey(full, { name: `k${i}` });
    expect((await call(t.app, full.token, 'GET', '/api/user/newApiKey')).statusCode).toBe(200);
    const res = await create(full, { name: 'eleventh', scopes: ['read'] });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('You can have at most 10 API keys; revoke one before making another');
    expect(await storedRows(full.id)).toBe(10);
    // Renewing the Default key replaces it: still ten.
    expect((await call(t.app, full.token, 'GET', '/api/user/newApiKey')).statusCode).toBe(200);
    expect(await keysOf(full)).toHaveLength(10);
    // An expired key no longer counts.
    const [oldest] = (await keysOf(full)).slice(-1);
    await t.built.database.db.execute(
      sql`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = ${oldest?._id ?? ''}`,
    );
    expect((await create(full, { name: 'eleventh', scopes: ['read'] })).statusCode).toBe(200);
  });
});

describe('what a key may do', () => {
  it('refuses a route outside its scopes with 403, naming the scope', async () => {
    const m = await registerMember(t.app, 'akscope');
    const { secret } = await makeKey(m, { scopes: ['trade'] });
    const res = await withKey(secret);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This API key does not allow read');
  });

  it('works only from its allowed addresses and ranges, IPv4 and IPv6', async () => {
    const m = await registerMember(t.app, 'akip');
    const { secret, apiKey } = await makeKey(m, {
      allowedIps: ['203.0.113.7', '198.51.100.0/24', '2001:DB8:0:0::1:0/112'],
    });
    expect(apiKey.allowedIps).toEqual(['203.0.113.7', '198.51.100.0/24', '2001:db8::1:0/112']);
    for (const from of ['203.0.113.7', '::ffff:203.0.113.7', '198.51.100.200', '2001:db8::1:abcd']) {
      expect((await withKey(secret, '/api/user/me', { from })).statusCode, from).toBe(200);
    }
    for (const from of ['203.0.113.8', '198.51.101.1', '2001:db8::2:1', '127.0.0.1']) {
      const res = await withKey(secret, '/api/user/me', { from });
      expect(res.statusCode, from).toBe(403);
      expect(res.json().message).toBe('This API key cannot be used from this address');
    }
  });

  it('stops working when it expires or is revoked: 401, and a second server sees it at once', async () => {
    const other: BuiltApp = await makeApp();
    try {
      const m = await registerMember(t.app, 'akrev');
      const a = await makeKey(m, { expiresAt: new Date(Date.now() + 60 * 60 * 1000).toISOString() });
      const b = await makeKey(m);
      expect((await withKey(a.secret, '/api/user/me', { app: other.app })).statusCode).toBe(200);
      expect((await withKey(b.secret, '/api/user/me', { app: other.app })).statusCode).toBe(200);
      await t.built.database.db.execute(
        sql`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = ${a.apiKey._id}`,
      );
      const expired = await withKey(a.secret, '/api/user/me', { app: other.app });
      expect(expired.statusCode).toBe(401);
      expect(expired.json().message).toBe('Not authorized');
      expect((await call(t.app, m.token, 'POST', '/api/user/apiKeys/revoke', { _id: b.apiKey._id })).statusCode).toBe(
        200,
      );
      const revoked = await withKey(b.secret, '/api/user/me', { app: other.app });
      expect(revoked.statusCode).toBe(401);
      expect(revoked.json().message).toBe('Not authorized');
    } finally {
      await other.app.close();
    }
  });

  it('moves its last-used time at most once per five minutes', async () => {
    const m = await registerMember(t.app, 'akused');
    const { secret, apiKey } = await makeKey(m);
    const lastUsed = async () => {
      const res = await t.built.database.db.execute(sql`SELECT last_used_at FROM api_keys WHERE id = ${apiKey._id}`);
      return (res.rows[0] as { last_used_at: string | null }).last_used_at;
    };
    const settled = async (expectSet: boolean) => {
      for (let i = 0; i < 50 && Boolean(await lastUsed()) !== expectSet; i++)
        await new Promise((r) => setTimeout(r, 20));
    };
    expect((await withKey(secret)).statusCode).toBe(200);
    await settled(true);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    for (let i = 0; i < 3; i++) expect((await withKey(secret)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(await lastUsed()).toEqual(first);
    // Six minutes later (moved back by hand), the next request moves it.
    await t.built.database.db.execute(
      sql`UPDATE api_keys SET last_used_at = now() - interval '6 minutes' WHERE id = ${apiKey._id}`,
    );
    const before = await lastUsed();
    expect((await withKey(secret)).statusCode).toBe(200);
    for (let i = 0; i < 50 && (await lastUsed()) === before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(new Date(String(await lastUsed())).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await keysOf(m))[0]?.lastUsedAt).not.toBeNull();
  });
});

describe('every route a key can reach', () => {
  it('declares its scope, or the server does not start', () => {
    const route = (config: Record<string, unknown>) =>
      ({ method: 'POST', url: '/api/test/unscoped', config, handler: () => undefined }) as never;
    expect(() => assertAccessDeclared(route({ access: 'member' }))).toThrow(
      'Route POST /api/test/unscoped does not declare config.scope',
    );
    expect(() => assertAccessDeclared(route({ access: 'creator' }))).toThrow('does not declare config.scope');
    for (const config of [{ access: 'member', sessionOnly: true }, { access: 'admin' }, { access: 'public' }]) {
      expect(() => assertAccessDeclared(route(config))).not.toThrow();
    }
    for (let i = declaredRoutes.length - 1; i >= 0; i--) {
      if (declaredRoutes[i]?.url === '/api/test/unscoped') declaredRoutes.splice(i, 1);
    }
  });

  it('refuses a key without its scope with 403 and lets one with it past', async () => {
    const creator = await withRole(t.built, await registerMember(t.app, 'akroute'), 'creator');
    const without = new Map<ApiKeyScope, string>();
    const only = new Map<ApiKeyScope, string>();
    for (const scope of ALL) {
      without.set(scope, (await makeKey(creator, { scopes: ALL.filter((s) => s !== scope) })).secret);
      only.set(scope, (await makeKey(creator, { scopes: [scope] })).secret);
    }
    const routes = declaredRoutes.filter((r) => r.scope !== null);
    expect(routes.length).toBeGreaterThanOrEqual(25);
    expect(routes.find((r) => r.url.endsWith('/withdraw'))?.scope).toBe('withdraw');
    // Withdrawal addresses (DESIGN §11.2): a key with read lists them; only a session changes them.
    expect(routes.find((r) => r.url === '/api/bank/withdrawAddresses')?.scope).toBe('read');
    const addressRoutes = ['addWithdrawAddress', 'removeWithdrawAddress', 'setAllowListOnly'];
    for (const name of addressRoutes) {
      expect(declaredRoutes.find((r) => r.url === `/api/bank/${name}`)?.sessionOnly, name).toBe(true);
    }
    for (const route of routes) {
      const scope = route.scope as ApiKeyScope;
      const label = `${route.method} ${route.url} (${scope})`;
      const url = route.url.replace(/:[^/]+/g, 'a'.repeat(24));
      const hit = (key: string) =>
        t.app.inject({
          method: route.method as 'GET' | 'POST',
          url,
          headers: { 'x-api-key': key },
          ...(route.method === 'GET' ? {} : { payload: {} }),
        });
      const refused = await hit(without.get(scope) ?? '');
      expect(refused.statusCode, label).toBe(403);
      expect(refused.json().message, label).toBe(`This API key does not allow ${scope}`);
      const allowed = await hit(only.get(scope) ?? '');
      // A CSV export answers its rows, not JSON.
      const json = String(allowed.headers['content-type']).startsWith('application/json');
      if (json) expect(allowed.json().message, label).not.toBe(`This API key does not allow ${scope}`);
      expect([401, 403], `${label}: ${allowed.body}`).not.toContain(allowed.statusCode);
    }
  });

  it('never reaches admin routes, whatever its scopes', async () => {
    const { secret } = await makeKey(t.admin, { scopes: ALL });
    for (const route of declaredRoutes.filter((r) => r.access === 'admin').slice(0, 5)) {
      const res = await t.app.inject({
        method: route.method as 'GET' | 'POST',
        url: route.url.replace(/:[^/]+/g, 'a'.repeat(24)),
        headers: { 'x-api-key': secret },
        ...(route.method === 'GET' ? {} : { payload: {} }),
      });
      expect(res.statusCode, route.url).toBe(403);
    }
  });
});

describe("an admin and a member's keys", () => {
  let m: Member;
  let made: CreateApiKeyResponse;
  beforeAll(async () => {
    m = await registerMember(t.app, 'akadm');
    made = await makeKey(m, { name: 'Leaky' });
  });

  it('lists them without secrets', async () => {
    const res = await call(t.app, t.admin.token, 'POST', '/api/user/getUserApiKeys', { nickname: m.nickname });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ApiKeysResponse>()).toEqual({ apiKeys: [made.apiKey], message: `${m.nickname} has 1 API key` });
    expect(res.body).not.toContain(made.secret);
    expect((await call(t.app, m.token, 'POST', '/api/user/getUserApiKeys', { nickname: m.nickname })).statusCode).toBe(
      403,
    );
  });

  it('revokes one, written to the admin log; a wrong member or key is 404', async () => {
    const stranger = await registerMember(t.app, 'akstr');
    const wrong = await call(t.app, t.admin.token, 'POST', '/api/user/revokeUserApiKey', {
      nickname: stranger.nickname,
      _id: made.apiKey._id,
    });
    expect(wrong.statusCode).toBe(404);
    expect((await withKey(made.secret)).statusCode).toBe(200);
    const res = await call(t.app, t.admin.token, 'POST', '/api/user/revokeUserApiKey', {
      nickname: m.nickname,
      _id: made.apiKey._id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: `${m.nickname}'s API key Leaky revoked` });
    expect((await withKey(made.secret)).statusCode).toBe(401);
    const logs = await t.built.database.db.execute(
      sql`SELECT action FROM admin_logs WHERE category = 43 AND affected_user_id = ${m.id}`,
    );
    expect(logs.rows).toEqual([{ action: `Revoke ${m.nickname}'s API key Leaky (${made.apiKey.prefix})` }]);
  });
});
