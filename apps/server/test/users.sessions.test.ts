/**
 * Sign-in sessions (DESIGN §11.1): each sign-in is a session a member lists (device, address, current one
 * marked) and ends, one or all others, at once on every server process and for its sockets; logout ends
 * only the current one; a password change ends the others; an admin sees and ends a member's sessions,
 * written to the admin log (category 40). One member never reads or ends another's.
 */
import type { AuthResponse, SessionsResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { deviceName } from '../src/modules/users/device-name.ts';
import { startSessionPruning } from '../src/modules/users/sessions.service.ts';
import { SESSION_ENDED_CLOSE } from '../src/plugins/websocket.ts';
import { call, type Member, makeApp, PASSWORD, registerMember, useTestApp } from './helpers.ts';
import { LiveSocket } from './live-socket.ts';

const t = useTestApp();
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** Signs `m` in again from a device (a User-Agent) and an address; returns the new session's token. */
async function signInFrom(app: BuiltApp['app'], m: Member, userAgent: string, address = '203.0.113.9') {
  const res = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { nickOrEmail: m.nickname, password: PASSWORD },
    headers: { 'user-agent': userAgent },
    remoteAddress: address,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AuthResponse>().token;
}

async function sessionsOf(token: string) {
  const res = await call(t.app, token, 'GET', '/api/user/sessions');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SessionsResponse>().sessions;
}

async function status(token: string, app = t.app) {
  return (await call(app, token, 'GET', '/api/user/me')).statusCode;
}

describe('deviceName', () => {
  it('names a browser and its system, and says so when there is no User-Agent', () => {
    expect(deviceName(CHROME_LINUX)).toBe('Chrome 131 on Linux');
    expect(deviceName(SAFARI_IPHONE)).toBe('Safari 17 on iOS');
    expect(deviceName('')).toBe('Unknown device');
    expect(deviceName('x'.repeat(5000)).length).toBeLessThanOrEqual(120);
  });
});

describe("a member's sessions", () => {
  it('lists each sign-in with its device and address, newest first, the current one marked', async () => {
    const m = await registerMember(t.app, 'list');
    const phone = await signInFrom(t.app, m, SAFARI_IPHONE, '198.51.100.4');
    const sessions = await sessionsOf(phone);
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({ current: true, device: 'Safari 17 on iOS', address: '198.51.100.4' });
    expect(sessions[0]!.secondFactor).toBe(false);
    expect(sessions[1]!.current).toBe(false);
    expect(Date.parse(sessions[0]!.lastSeenAt)).toBeGreaterThan(0);
    // The other session sees the same two, itself marked.
    const fromFirst = await sessionsOf(m.token);
    expect(fromFirst.map((s) => s._id)).toEqual(sessions.map((s) => s._id));
    expect(fromFirst[1]!.current).toBe(true);
  });

  it('ends one session at once; its token is refused, the others go on', async () => {
    const m = await registerMember(t.app, 'endone');
    const laptop = await signInFrom(t.app, m, CHROME_LINUX);
    const [laptopSession] = await sessionsOf(laptop);
    const res = await call(t.app, m.token, 'POST', '/api/user/sessions/end', { _id: laptopSession!._id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('The session has been ended');
    expect(await status(laptop)).toBe(401);
    expect(await status(m.token)).toBe(200);
    expect((await sessionsOf(m.token)).map((s) => s._id)).not.toContain(laptopSession!._id);
  });

  it("never ends another member's session: 404 Session not found, and it goes on", async () => {
    const owner = await registerMember(t.app, 'owner');
    const stranger = await registerMember(t.app, 'strgr');
    const [ownerSession] = await sessionsOf(owner.token);
    const res = await call(t.app, stranger.token, 'POST', '/api/user/sessions/end', { _id: ownerSession!._id });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Session not found');
    expect(await status(owner.token)).toBe(200);
    const bad = await call(t.app, stranger.token, 'POST', '/api/user/sessions/end', { _id: 'nope' });
    expect(bad.statusCode).toBe(400);
  });

  it('ends every other session and keeps the current one', async () => {
    const m = await registerMember(t.app, 'others');
    const a = await signInFrom(t.app, m, CHROME_LINUX);
    const b = await signInFrom(t.app, m, SAFARI_IPHONE);
    const res = await call(t.app, b, 'POST', '/api/user/sessions/endOthers', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('2 other sessions ended');
    expect([await status(m.token), await status(a), await status(b)]).toEqual([401, 401, 200]);
    expect(await sessionsOf(b)).toHaveLength(1);
    const again = await call(t.app, b, 'POST', '/api/user/sessions/endOthers', {});
    expect(again.json().message).toBe('No other sessions');
  });

  it('logout ends only the current session', async () => {
    const m = await registerMember(t.app, 'lgo');
    const other = await signInFrom(t.app, m, CHROME_LINUX);
    expect((await call(t.app, m.token, 'POST', '/api/user/logout')).statusCode).toBe(200);
    expect(await status(m.token)).toBe(401);
    expect(await status(other)).toBe(200);
    expect(await sessionsOf(other)).toHaveLength(1);
  });

  it('a password change ends the other sessions; this one goes on with its new token', async () => {
    const m = await registerMember(t.app, 'pwd');
    const other = await signInFrom(t.app, m, CHROME_LINUX);
    const res = await call(t.app, m.token, 'POST', '/api/user/updateProfile', {
      password: 'N3w!Passw0rd-x',
      currentPassword: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    const token = res.json<{ token: string }>().token;
    expect(await status(other)).toBe(401);
    const left = await sessionsOf(token);
    expect(left).toHaveLength(1);
    expect(left[0]!.current).toBe(true);
  });

  it("a password change's new token ends when its session does, not 24 hours later", async () => {
    const m = await registerMember(t.app, 'pwdexp');
    // A session signed in 23 hours ago: an hour left.
    await t.built.database.db.execute(
      sql`UPDATE user_sessions SET expires_at = date_trunc('second', now()) + interval '1 hour' WHERE user_id = ${m.id}`,
    );
    const res = await call(t.app, m.token, 'POST', '/api/user/updateProfile', {
      password: 'N3w!Passw0rd-y',
      currentPassword: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    const exp = decodeJwt(res.json<{ token: string }>().token).exp ?? 0;
    expect(Math.abs(exp - (Math.floor(Date.now() / 1000) + 3600))).toBeLessThanOrEqual(5);
  });

  it('refuses a token signed before sessions were kept (no session id)', async () => {
    const m = await registerMember(t.app, 'nosid');
    const [row] = (await t.built.database.db.execute(sql`SELECT token_version FROM users WHERE id = ${m.id}`))
      .rows as Array<{ token_version: number }>;
    const { SignJWT } = await import('jose');
    const { TEST_JWT_SECRET } = await import('./test-db.ts');
    const legacy = await new SignJWT({ role: 'user', tv: row!.token_version })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(m.id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    expect(await status(legacy)).toBe(401);
  });
});

describe('pruning', () => {
  it('deletes sessions expired over 30 days ago and keeps the rest', async () => {
    const m = await registerMember(t.app, 'prune');
    const db = t.built.database.db;
    await db.execute(sql`UPDATE user_sessions SET expires_at = now() - interval '31 days' WHERE user_id = ${m.id}`);
    await signInFrom(t.app, m, CHROME_LINUX);
    await db.execute(
      sql`UPDATE user_sessions SET expires_at = now() - interval '1 day', created_at = now() - interval '2 days'
          WHERE user_id = ${m.id} AND expires_at > now()`,
    );
    const job = startSessionPruning(db, t.app.log, 3_600_000);
    await job.runNow();
    await job.stop();
    const left = await db.execute(
      sql`SELECT expires_at > now() - interval '30 days' AS kept FROM user_sessions WHERE user_id = ${m.id}`,
    );
    expect(left.rows).toEqual([{ kept: true }]);
  });
});

describe("an admin and a member's sessions", () => {
  it('lists them, ends them all, and writes the admin log (40 End User Sessions)', async () => {
    const m = await registerMember(t.app, 'adm');
    const other = await signInFrom(t.app, m, CHROME_LINUX);
    const listed = await call(t.app, t.admin.token, 'POST', '/api/user/getUserSessions', { nickname: m.nickname });
    expect(listed.statusCode, listed.body).toBe(200);
    const sessions = listed.json<SessionsResponse>().sessions;
    expect(sessions).toHaveLength(2);
    expect(sessions.every((s) => !s.current)).toBe(true);

    const ended = await call(t.app, t.admin.token, 'POST', '/api/user/endUserSessions', { nickname: m.nickname });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().message).toBe(`${m.nickname}'s sessions have been ended (2)`);
    expect([await status(m.token), await status(other)]).toEqual([401, 401]);
    const logs = await t.built.database.db.execute(
      sql`SELECT category, action FROM admin_logs WHERE affected_user_id = ${m.id} AND category = 40`,
    );
    expect(logs.rows).toHaveLength(1);
    // The member signs in again as usual.
    expect(await status(await signInFrom(t.app, m, CHROME_LINUX))).toBe(200);
  });

  it('are admin routes: a member gets 403, an unknown nickname 404', async () => {
    const m = await registerMember(t.app, 'nadm');
    for (const url of ['/api/user/getUserSessions', '/api/user/endUserSessions']) {
      expect((await call(t.app, m.token, 'POST', url, { nickname: m.nickname })).statusCode).toBe(403);
      const unknown = await call(t.app, t.admin.token, 'POST', url, { nickname: 'nobodyatall42' });
      expect(unknown.statusCode).toBe(404);
    }
    expect(await status(m.token)).toBe(200);
  });
});

describe('a session ended on one server process', () => {
  let other: BuiltApp;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    other = await makeApp();
    await other.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await other?.app.close();
  });

  it("is refused on the other at once, and its sockets close there; other sessions' sockets stay", async () => {
    const m = await registerMember(t.app, 'repl');
    const laptop = await signInFrom(t.app, m, CHROME_LINUX);
    expect(await status(laptop, other.app)).toBe(200);
    const ended = await LiveSocket.open(other.app);
    const kept = await LiveSocket.open(other.app);
    ended.send({ type: 'auth', token: laptop });
    kept.send({ type: 'auth', token: m.token });
    for (const s of [ended, kept]) await s.until((ms) => ms.some((x) => x.type === 'balances'));

    const [laptopSession] = await sessionsOf(laptop);
    const res = await call(t.app, m.token, 'POST', '/api/user/sessions/end', { _id: laptopSession!._id });
    expect(res.statusCode, res.body).toBe(200);
    expect(await status(laptop, other.app)).toBe(401);
    await ended.until(() => ended.closeCode !== null);
    expect(ended.closeCode).toBe(SESSION_ENDED_CLOSE);
    expect(kept.closeCode).toBeNull();
    expect(await status(m.token, other.app)).toBe(200);
    kept.close();
  });
});
