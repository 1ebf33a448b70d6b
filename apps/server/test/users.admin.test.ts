/**
 * The admin side of accounts and the audit trail (DESIGN §8): getUsers and its filters,
 * getUserStats, administrateUser effective at once and the last-admin rule, the access and admin logs.
 */
import type {
  AuthResponse,
  GetAccessLogsResponse,
  GetAdminLogsResponse,
  GetUserStatsResponse,
  GetUsersResponse,
} from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { declaredRoutes } from '../src/http/access.ts';
import { call, type Member, makePgliteApp, mint, PASSWORD, registerMember, useTestApp, withRole } from './helpers.ts';
import { LiveSocket } from './live-socket.ts';

const t = useTestApp();
const page = { limit: 50, page: 1 };

function getUsers(filters: Record<string, unknown>) {
  return call(t.app, t.admin.token, 'POST', '/api/user/getUsers', { paging: page, ...filters });
}

function administrate(body: Record<string, unknown>, by: Member = t.admin) {
  return call(t.app, by.token, 'POST', '/api/user/administrateUser', body);
}

function login(nickOrEmail: string) {
  return t.app.inject({ method: 'POST', url: '/api/user/login', payload: { nickOrEmail, password: PASSWORD } });
}

describe('the role matrix', () => {
  it('lists the new admin routes, so the generated 401/403 checks cover them', () => {
    const admin = declaredRoutes.filter((r) => r.access === 'admin').map((r) => r.url);
    expect(admin).toEqual(
      expect.arrayContaining([
        '/api/user/getUsers',
        '/api/user/getUserStats',
        '/api/user/administrateUser',
        '/api/audit/getAccessLogs',
        '/api/audit/getAdminLogs',
      ]),
    );
  });
});

describe('getUsers', () => {
  it('filters by part of the nickname, role and flags, with total and hasCurrency; never a secret', async () => {
    const rich = await registerMember(t.app, 'gulist');
    const poor = await registerMember(t.app, 'gulist');
    await mint(t.app, t.admin, rich.nickname, 1, '5');
    const res = await getUsers({ nickname: 'GULIST' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<GetUsersResponse>();
    const mine = body.users.filter((u) => u.nickname === rich.nickname || u.nickname === poor.nickname);
    expect(mine).toHaveLength(2);
    expect(body.total).toBeGreaterThanOrEqual(2);
    expect(mine.find((u) => u.nickname === rich.nickname)?.hasCurrency).toBe(true);
    expect(mine.find((u) => u.nickname === poor.nickname)?.hasCurrency).toBe(false);
    expect(res.body).not.toContain('argon2');
    expect(res.body).not.toContain('balances');

    const admins = (await getUsers({ role: 'admin' })).json<GetUsersResponse>();
    expect(admins.users.every((u) => u.role === 'admin')).toBe(true);
    expect(admins.users.some((u) => u.nickname === 'admin')).toBe(true);
  });

  it('pages with total; prefix matches of a search in nickname order', async () => {
    for (let i = 0; i < 6; i++) await registerMember(t.app, 'gupage');
    const first = (
      await call(t.app, t.admin.token, 'POST', '/api/user/getUsers', {
        paging: { limit: 5, page: 1 },
        nickname: 'gupage',
      })
    ).json<GetUsersResponse>();
    const second = (
      await call(t.app, t.admin.token, 'POST', '/api/user/getUsers', {
        paging: { limit: 5, page: 2 },
        nickname: 'gupage',
      })
    ).json<GetUsersResponse>();
    expect(first.total).toBe(6);
    expect(first.users).toHaveLength(5);
    expect(second.users).toHaveLength(1);
    const names = [...first.users, ...second.users].map((u) => u.nickname);
    expect([...names].sort()).toEqual(names);
  });

  it('filters by created date, e-mail and flags', async () => {
    const m = await registerMember(t.app, 'gudate');
    const future = (await getUsers({ createdAfter: '2999-01-01' })).json<GetUsersResponse>();
    expect(future.total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const byMail = (await getUsers({ email: m.email, createdAfter: today, isActive: true })).json<GetUsersResponse>();
    expect(byMail.users.map((u) => u.nickname)).toEqual([m.nickname]);
    const verified = (await getUsers({ email: m.email, isEmailVerified: true })).json<GetUsersResponse>();
    expect(verified.total).toBe(0);
  });

  it.each([
    [{ paging: { limit: 4, page: 1 } }, '"paging.limit" contains an invalid value'],
    [{ paging: page, isActive: 'maybe' }, '"isActive" contains an invalid value'],
    [{ paging: page, createdAfter: 'yesterday' }, '"createdAfter" contains an invalid value'],
    [{}, '"paging" is required'],
  ])('refuses %j with SPEC’s message', async (body, message) => {
    const res = await call(t.app, t.admin.token, 'POST', '/api/user/getUsers', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });
});

describe('getUserStats', () => {
  it('counts accounts created in the range', async () => {
    const before = (
      await call(t.app, t.admin.token, 'POST', '/api/user/getUserStats', {})
    ).json<GetUserStatsResponse>();
    const m = await registerMember(t.app, 'stats');
    await mint(t.app, t.admin, m.nickname, 1, '1');
    const after = (await call(t.app, t.admin.token, 'POST', '/api/user/getUserStats', {})).json<GetUserStatsResponse>();
    expect(after.stats.total).toBe(before.stats.total + 1);
    expect(after.stats.haveCurrency).toBe(before.stats.haveCurrency + 1);
    expect(after.stats.adminUsers).toBeGreaterThanOrEqual(1);
    const none = (
      await call(t.app, t.admin.token, 'POST', '/api/user/getUserStats', {
        startDate: '2001-01-01',
        endDate: '2001-12-31',
      })
    ).json<GetUserStatsResponse>();
    expect(none.stats).toEqual({
      total: 0,
      verifiedEmailAccounts: 0,
      walletUsers: 0,
      anonymousUsers: 0,
      disabledAccounts: 0,
      adminUsers: 0,
      haveCurrency: 0,
    });
  });
});

describe('administrateUser', () => {
  it('deactivates a member at once: live token 401, sign-in 403; reactivation lets them back in', async () => {
    const m = await registerMember(t.app, 'deact');
    const res = await administrate({ nickname: m.nickname, active: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.isActive).toBe(false);
    expect((await call(t.app, m.token, 'GET', '/api/user/me')).statusCode).toBe(401);
    expect((await login(m.nickname)).statusCode).toBe(403);
    expect((await administrate({ nickname: m.nickname, active: 'true' })).statusCode).toBe(200);
    expect((await login(m.nickname)).statusCode).toBe(200);
  });

  it('promotes and demotes: the demoted admin loses admin routes on the next request', async () => {
    const m = await registerMember(t.app, 'promo');
    expect((await administrate({ nickname: m.nickname, role: 'admin' })).statusCode).toBe(200);
    const asAdmin = (await login(m.nickname)).json<AuthResponse>();
    expect(asAdmin.user.role).toBe('admin');
    expect((await call(t.app, asAdmin.token, 'GET', '/api/bank/audit')).statusCode).toBe(200);
    expect((await administrate({ nickname: m.nickname, role: 'user' })).statusCode).toBe(200);
    expect((await call(t.app, asAdmin.token, 'GET', '/api/bank/audit')).statusCode).toBe(401);
    const again = (await login(m.nickname)).json<AuthResponse>();
    expect((await call(t.app, again.token, 'GET', '/api/bank/audit')).statusCode).toBe(403);
  });

  it('writes an admin log row with the affected member and the IP', async () => {
    const m = await registerMember(t.app, 'logged');
    await administrate({ nickname: m.nickname, role: 'creator' });
    const logs = (
      await call(t.app, t.admin.token, 'POST', '/api/audit/getAdminLogs', { paging: page, affectedUser: m.nickname })
    ).json<GetAdminLogsResponse>();
    expect(logs.total).toBe(1);
    expect(logs.logs[0]).toMatchObject({
      adminUser: { nickname: 'admin' },
      affectedUser: { nickname: m.nickname },
      category: 1,
      address: '127.0.0.1',
    });
    expect(logs.logs[0]?.action).toContain('role user -> creator');
  });

  it.each([
    [{ nickname: 'nobodyhere' }, 400, '"role" is required'],
    [{ nickname: 'nobodyhere', role: 'admin' }, 404, 'User not found'],
    [{ nickname: 'nobodyhere', role: 'root' }, 400, '"role" contains an invalid value'],
    [{ role: 'admin' }, 400, '"nickname" is required'],
  ])('answers %j with %i', async (body, status, message) => {
    const res = await administrate(body);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
  });
});

describe('the last active admin', () => {
  // A database of its own (embedded, in memory), so its admins are only the ones made here.
  const fresh = useTestApp({}, { build: makePgliteApp });

  it('cannot be demoted or deactivated, even by two admins demoting each other at once', async () => {
    const alone = await call(fresh.app, fresh.admin.token, 'POST', '/api/user/administrateUser', {
      nickname: 'admin',
      role: 'user',
    });
    expect(alone.statusCode).toBe(409);
    expect(alone.json().message).toBe('The last active admin cannot be demoted or deactivated');

    const other = await withRole(fresh.built, await registerMember(fresh.app, 'second'), 'admin');
    const [a, b] = await Promise.all([
      call(fresh.app, fresh.admin.token, 'POST', '/api/user/administrateUser', {
        nickname: other.nickname,
        role: 'user',
      }),
      call(fresh.app, other.token, 'POST', '/api/user/administrateUser', { nickname: 'admin', active: false }),
    ]);
    // One wins; the other is refused: 409 by the rule, or 401 when the winner's change already ended its session.
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes[0]).toBe(200);
    expect([401, 409]).toContain(codes[1]);
    const active = await fresh.built.database.db.execute(
      sql`SELECT count(*)::int AS n FROM users WHERE role = 'admin' AND is_active`,
    );
    expect(Number((active.rows[0] as { n: number }).n)).toBe(1);
  });
});

describe('getAccessLogs', () => {
  it('lists sign-ins by member, type and address with total', async () => {
    const m = await registerMember(t.app, 'access');
    await login(m.email);
    const res = await call(t.app, t.admin.token, 'POST', '/api/audit/getAccessLogs', {
      paging: page,
      user: m.nickname,
      category: 1,
      address: '127.0.0',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<GetAccessLogsResponse>();
    expect(body.total).toBe(2);
    expect(body.logs[0]).toMatchObject({ user: { nickname: m.nickname }, loginType: 1, address: '127.0.0.1' });
    const wallet = (
      await call(t.app, t.admin.token, 'POST', '/api/audit/getAccessLogs', {
        paging: page,
        user: m.nickname,
        category: 2,
      })
    ).json<GetAccessLogsResponse>();
    expect(wallet.total).toBe(0);
  });

  it('refuses a login type outside 1-4', async () => {
    const res = await call(t.app, t.admin.token, 'POST', '/api/audit/getAccessLogs', { paging: page, category: 5 });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"category" contains an invalid value');
  });
});

describe('getAdminLogs', () => {
  it('records mint and defcon actions with the admin and IP, filterable by category and date', async () => {
    const m = await registerMember(t.app, 'alog');
    await mint(t.app, t.admin, m.nickname, 1, '2');
    await call(t.app, t.admin.token, 'POST', '/api/audit/setDefconLevel', { defconLvl: 0, defconMsg: 'calm' });
    const mints = (
      await call(t.app, t.admin.token, 'POST', '/api/audit/getAdminLogs', {
        paging: page,
        category: 4,
        affectedUser: m.nickname,
      })
    ).json<GetAdminLogsResponse>();
    expect(mints.total).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    const defcon = (
      await call(t.app, t.admin.token, 'POST', '/api/audit/getAdminLogs', {
        paging: page,
        category: 6,
        adminUser: 'admin',
        startDate: today,
        endDate: today,
      })
    ).json<GetAdminLogsResponse>();
    expect(defcon.logs.some((l) => l.action.includes('calm') && l.address === '127.0.0.1')).toBe(true);
  });
});

describe('live notices', () => {
  const live = useTestApp({}, { build: makePgliteApp });

  it('a new defcon level reaches every open socket, signed in or not; a deactivated member’s socket closes', async () => {
    await live.app.listen({ port: 0, host: '127.0.0.1' });
    const member = await registerMember(live.app, 'sock');
    const visitor = await LiveSocket.open(live.app);
    const signedIn = await LiveSocket.open(live.app);
    signedIn.send({ type: 'auth', token: member.token });
    await signedIn.until((ms) => ms.some((m) => m.type === 'auth'));

    const res = await call(live.app, live.admin.token, 'POST', '/api/audit/setDefconLevel', {
      defconLvl: 3,
      defconMsg: 'Maintenance at noon',
    });
    expect(res.statusCode).toBe(200);
    for (const socket of [visitor, signedIn]) {
      await socket.until((ms) =>
        ms.find((m) => m.type === 'defcon' && m.defconLvl === 3 && m.defconMsg === 'Maintenance at noon'),
      );
    }

    await call(live.app, live.admin.token, 'POST', '/api/user/administrateUser', {
      nickname: member.nickname,
      active: false,
    });
    await signedIn.until((ms) => ms.some((m) => m.type === 'error' && m.message === 'Not authorized'));
    await signedIn.until(() => signedIn.closeCode !== null);
    expect(visitor.closeCode).toBeNull();
    visitor.close();
  });
});
