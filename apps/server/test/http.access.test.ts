import type { TransactionsResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DeclaredRoute, declaredRoutes } from '../src/http/access.ts';
import { call, expectLedgerBalanced, type Member, mint, registerMember, useTestApp, withRole } from './helpers.ts';

const t = useTestApp();
let member: Member;
let creator: Member;
let routes: DeclaredRoute[];

beforeAll(async () => {
  member = await registerMember(t.app, 'sec');
  creator = await withRole(t.built, await registerMember(t.app, 'creator'), 'creator');
  routes = [...declaredRoutes];
});

/** A concrete path for a route: `:params` become a well-formed object id. */
function pathOf(route: DeclaredRoute): string {
  return route.url.replace(/:[^/]+/g, 'a'.repeat(24));
}

function hit(route: DeclaredRoute, token: string | undefined, payload?: unknown) {
  const method = route.method as 'GET' | 'POST';
  return call(t.app, token, method, pathOf(route), method === 'GET' ? undefined : (payload ?? {}));
}

const BAD_TOKENS = ['garbage', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'];

describe('the route table', () => {
  it('declares access for every /api route, including the money routes', () => {
    const table = routes.map((r) => `${r.method} ${r.url} ${r.access}`);
    expect(table).toEqual(
      expect.arrayContaining([
        'GET /api/bank/currencies public',
        'POST /api/user/register public',
        'POST /api/user/login public',
        'GET /api/user/me member',
        'POST /api/bank/p2pTransfer member',
        'GET /api/forge/recipes/fetch public',
        'POST /api/forge/recipes/create admin',
        'POST /api/forge/recipes/modify admin',
        'POST /api/forge/recipes/delete admin',
        'POST /api/forge/recipes/setactive admin',
        'POST /api/forge/startProcess member',
        'POST /api/forge/endProcess member',
        'POST /api/forge/getForgeProcesses member',
        'POST /api/forge/getForgeProcessesAll admin',
        'POST /api/user/leaderboard public',
        'GET /api/checkout/packages/fetch public',
        'POST /api/checkout/packages/create admin',
        'POST /api/checkout/packages/publish admin',
        'POST /api/checkout/buyPackage member',
        'POST /api/checkout/getTransactions member',
        'POST /api/checkout/getAllTransactions admin',
        'POST /api/checkout/sandbox/:checkoutId/:action member',
        'POST /api/checkout/webhook/stripe public',
        'POST /api/checkout/webhook/btcpay public',
        'POST /api/inventory/createCollection creator',
        'POST /api/inventory/getCollections public',
        'POST /api/inventory/createItem creator',
        'POST /api/inventory/modifyItem creator',
        'POST /api/inventory/modifyCollection creator',
        'POST /api/inventory/getItems member',
        'POST /api/inventory/getUserItems member',
        'POST /api/inventory/getUserCollections member',
        'POST /api/inventory/getUserItemsGrouped member',
        'POST /api/inventory/giftItem member',
        'GET /api/inventory/synthChips public',
        'GET /api/inventory/dropTable public',
        'POST /api/inventory/buySynthChips member',
        'POST /api/inventory/openSynthChips member',
        'POST /api/capp/createAuthRequest creator',
        'POST /api/capp/getAuthRequest public',
        'POST /api/capp/redeemCode creator',
        'POST /api/capp/getUserItems creator',
        'POST /api/bank/transactions member',
        'POST /api/bank/distributeCurrency member',
        'POST /api/bank/mint admin',
        'POST /api/bank/burn admin',
        'POST /api/bank/createCurrency admin',
        'POST /api/bank/modifyCurrency admin',
        'POST /api/bank/alltransactions admin',
        'POST /api/bank/currencyStats admin',
        'GET /api/bank/audit admin',
      ]),
    );
    expect(routes.every((r) => r.url.startsWith('/api/'))).toBe(true);
  });
});

describe('admin routes', () => {
  it('answer 401 without a token or with a bad one, 403 to members and creators', async () => {
    const adminRoutes = routes.filter((r) => r.access === 'admin');
    expect(adminRoutes.length).toBeGreaterThanOrEqual(7);
    for (const route of adminRoutes) {
      const label = `${route.method} ${route.url}`;
      const none = await hit(route, undefined);
      expect(none.statusCode, label).toBe(401);
      expect(none.json().message, label).toBe('Not authorized');
      for (const bad of BAD_TOKENS) {
        const res = await hit(route, bad);
        expect(res.statusCode, label).toBe(401);
        expect(res.json().message, label).toBe('Not authorized');
      }
      expect((await hit(route, member.token)).statusCode, `${label} as member`).toBe(403);
      expect((await hit(route, creator.token)).statusCode, `${label} as creator`).toBe(403);
    }
  });

  it('stop accepting a demoted admin at once', async () => {
    const promoted = await withRole(t.built, await registerMember(t.app, 'demoted'), 'admin');
    expect((await call(t.app, promoted.token, 'GET', '/api/bank/audit')).statusCode).toBe(200);
    await t.built.database.db.execute(sql`UPDATE users SET role = 'user' WHERE id = ${promoted.id}`);
    expect((await call(t.app, promoted.token, 'GET', '/api/bank/audit')).statusCode).toBe(403);
  });
});

describe('member and creator routes', () => {
  it('answer 401 without a token or with a bad one', async () => {
    const signedIn = routes.filter((r) => r.access === 'member' || r.access === 'creator');
    expect(signedIn.length).toBeGreaterThanOrEqual(5);
    for (const route of signedIn) {
      const label = `${route.method} ${route.url}`;
      expect((await hit(route, undefined)).statusCode, label).toBe(401);
      for (const bad of BAD_TOKENS) expect((await hit(route, bad)).statusCode, label).toBe(401);
    }
  });

  it('creator routes refuse plain members with 403', async () => {
    for (const route of routes.filter((r) => r.access === 'creator')) {
      expect((await hit(route, member.token)).statusCode, `${route.method} ${route.url}`).toBe(403);
    }
  });

  it('public routes never ask for a token', async () => {
    for (const route of routes.filter((r) => r.access === 'public')) {
      const res = await hit(route, undefined);
      expect([401, 403], `${route.method} ${route.url}`).not.toContain(res.statusCode);
    }
  });
});

describe('request bodies', () => {
  it('refuse unknown fields on every POST with a body schema', async () => {
    const withBody = routes.filter((r) => r.method === 'POST' && r.hasBody);
    expect(withBody.length).toBeGreaterThanOrEqual(10);
    for (const route of withBody) {
      const token = route.access === 'public' ? undefined : t.admin.token;
      const res = await hit(route, token, { unexpectedField: 1 });
      const label = `${route.method} ${route.url}`;
      expect(res.statusCode, label).toBe(400);
      expect(res.json().errors, label).toContainEqual({
        field: 'unexpectedField',
        message: '"unexpectedField" is not allowed',
      });
    }
  });

  it('answer unknown /api paths with a JSON 404', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await call(t.app, member.token, method, '/api/bank/nothingHere', method === 'POST' ? {} : undefined);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found' });
    }
  });

  it('refuse a body that is not JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bank/p2pTransfer',
      headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json' },
      payload: '{"recipientNickName":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
  });
});

describe('transaction histories', () => {
  it('never show a member the rows of others, whatever the filters', async () => {
    const a = await registerMember(t.app, 'pa');
    const b = await registerMember(t.app, 'pb');
    const snoop = await registerMember(t.app, 'snoop');
    await mint(t.app, t.admin, a.nickname, 2, '10');
    await mint(t.app, t.admin, snoop.nickname, 2, '1');
    expect(
      (
        await call(t.app, a.token, 'POST', '/api/bank/p2pTransfer', {
          recipientNickName: b.nickname,
          currencyId: 2,
          amount: '4',
        })
      ).statusCode,
    ).toBe(200);
    const theirs = await call(t.app, t.admin.token, 'POST', '/api/bank/alltransactions', {
      paging: { limit: 50, page: 1 },
      nickname: a.nickname,
    });
    const theirIds = new Set(theirs.json<TransactionsResponse>().txs.map((t) => t._id));
    expect(theirIds.size).toBe(2);

    const filters: Array<Record<string, unknown>> = [
      {},
      { nickname: a.nickname },
      { nickname: b.nickname },
      { nickname: a.nickname, currencyId: 2, category: 3 },
      { nickname: 'admin', category: 10 },
    ];
    for (const f of filters) {
      const res = await call(t.app, snoop.token, 'POST', '/api/bank/transactions', {
        paging: { limit: 50, page: 1 },
        ...f,
      });
      expect(res.statusCode).toBe(200);
      const body = res.json<TransactionsResponse>();
      expect(
        body.txs.filter((t) => theirIds.has(t._id)),
        JSON.stringify(f),
      ).toEqual([]);
      for (const t of body.txs) {
        expect([t.sender?.nickname, t.recipient?.nickname]).toContain(snoop.nickname);
      }
    }
    const own = await call(t.app, snoop.token, 'POST', '/api/bank/transactions', {
      paging: { limit: 50, page: 1 },
      nickname: a.nickname,
    });
    expect(own.json<TransactionsResponse>().total).toBe(0);
    // The transfer's parties do see it.
    const forB = await call(t.app, b.token, 'POST', '/api/bank/transactions', {
      paging: { limit: 50, page: 1 },
      nickname: a.nickname,
    });
    expect(forB.json<TransactionsResponse>().total).toBe(1);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('never leak password hashes or tokens in user payloads', async () => {
    const res = await call(t.app, member.token, 'GET', '/api/user/me');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/password|argon2|tokenVersion|apiKey/i);
  });
});
