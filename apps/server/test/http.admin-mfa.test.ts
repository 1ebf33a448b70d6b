/**
 * `ADMIN_MFA` (DESIGN §11.1): under `required`, every declared admin route answers 403 `Two-factor
 * authentication is required for admins` to an admin session that did not pass a second factor, and lets a
 * session that did through; `GET me` tells the web which it is. Under `optional`, a password is enough.
 */
import type { MeResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { type DeclaredRoute, declaredRoutes } from '../src/http/access.ts';
import { ADMIN_MFA_MESSAGE } from '../src/plugins/auth.ts';
import { call, loginAdmin, registerMember, type TestApp, useTestApp } from './helpers.ts';

/** A concrete path for a route: `:params` become a well-formed object id. */
function pathOf(route: DeclaredRoute): string {
  return route.url.replace(/:[^/]+/g, 'a'.repeat(24));
}

function hit(t: TestApp, route: DeclaredRoute, token: string) {
  const method = route.method as 'GET' | 'POST';
  return call(t.app, token, method, pathOf(route), method === 'GET' ? undefined : {});
}

/** Marks the session of `token` as having passed a second factor, as a TOTP or passkey sign-in does. */
async function passSecondFactor(t: TestApp, token: string): Promise<void> {
  const sid = decodeJwt(token).sid as string;
  const rows = await t.built.database.db.execute(
    sql`UPDATE user_sessions SET second_factor = true WHERE id = ${sid} RETURNING id`,
  );
  expect(rows.rows).toHaveLength(1);
}

async function meOf(t: TestApp, token: string): Promise<MeResponse> {
  const res = await call(t.app, token, 'GET', '/api/user/me');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<MeResponse>();
}

describe('ADMIN_MFA=required', () => {
  const t = useTestApp({ ADMIN_MFA: 'required' });

  it('is the default', async () => {
    const { loadConfig } = await import('../src/config.ts');
    expect(loadConfig({}).ADMIN_MFA).toBe('required');
    expect(() => loadConfig({ ADMIN_MFA: 'sometimes' })).toThrow(/ADMIN_MFA/);
  });

  it('refuses every admin route to an admin session without a second factor, with its message', async () => {
    const adminRoutes = declaredRoutes.filter((r) => r.access === 'admin');
    expect(adminRoutes.length).toBeGreaterThanOrEqual(20);
    const token = (await loginAdmin(t.app)).token;
    for (const route of adminRoutes) {
      const res = await hit(t, route, token);
      const label = `${route.method} ${route.url}`;
      expect(res.statusCode, label).toBe(403);
      expect(res.json(), label).toEqual({ message: ADMIN_MFA_MESSAGE });
    }
  });

  it('lets a session that passed a second factor through every admin route', async () => {
    const adminRoutes = declaredRoutes.filter((r) => r.access === 'admin');
    const token = (await loginAdmin(t.app)).token;
    await passSecondFactor(t, token);
    for (const route of adminRoutes) {
      const res = await hit(t, route, token);
      const label = `${route.method} ${route.url}`;
      expect([401, 403], `${label}: ${res.body}`).not.toContain(res.statusCode);
      expect(res.body, label).not.toContain(ADMIN_MFA_MESSAGE);
    }
  });

  it('keeps member routes open to the admin without a second factor, and members unaffected', async () => {
    const admin = await loginAdmin(t.app);
    const me = await meOf(t, admin.token);
    expect(me.session).toEqual({ secondFactor: false, adminMfaRequired: true });
    expect((await call(t.app, admin.token, 'GET', '/api/user/sessions')).statusCode).toBe(200);

    const member = await registerMember(t.app, 'mfa');
    expect((await meOf(t, member.token)).session).toEqual({ secondFactor: false, adminMfaRequired: false });
    const audit = await call(t.app, member.token, 'GET', '/api/bank/audit');
    expect(audit.statusCode).toBe(403);
    expect(audit.json()).toEqual({ message: 'Forbidden' });
  });

  it('tells the web when the session passed a second factor', async () => {
    const admin = await loginAdmin(t.app);
    await passSecondFactor(t, admin.token);
    expect((await meOf(t, admin.token)).session).toEqual({ secondFactor: true, adminMfaRequired: true });
  });
});

describe('ADMIN_MFA=optional', () => {
  const t = useTestApp({ ADMIN_MFA: 'optional' });

  it('opens admin routes to a password sign-in', async () => {
    const admin = await loginAdmin(t.app);
    expect((await call(t.app, admin.token, 'GET', '/api/bank/audit')).statusCode).toBe(200);
    expect((await meOf(t, admin.token)).session).toEqual({ secondFactor: false, adminMfaRequired: false });
  });
});
