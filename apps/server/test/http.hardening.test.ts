/**
 * What an outside probe found, each fixed and held here: the Bearer scheme in any case,
 * HSTS only over https, and the sockets of an ended session closed on every server process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { SESSION_ENDED_CLOSE } from '../src/plugins/websocket.ts';
import { call, makeApp, mint, registerMember, useTestApp } from './helpers.ts';
import { LiveSocket } from './live-socket.ts';

const t = useTestApp();

describe('the Authorization header', () => {
  it.each(['Bearer', 'bearer', 'BEARER'])(
    'accepts the scheme written %s (RFC 7235: case-insensitive)',
    async (scheme) => {
      const m = await registerMember(t.app, 'scheme');
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/user/me',
        headers: { authorization: `${scheme} ${m.token}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().user.nickname).toBe(m.nickname);
    },
  );

  it.each(['Basic', 'Bearer', 'Token'])('refuses %s without a valid bearer token with 401', async (scheme) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/user/me',
      headers: { authorization: `${scheme} abc.def` },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Not authorized' });
  });
});

describe('HSTS and upgrade-insecure-requests', () => {
  it('are not sent when the app is published over plain http (a LAN deployment)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(String(res.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
  });

  it("leave the rest of the policy on every answer, an error's included", async () => {
    for (const [method, url] of [
      ['GET', '/api/health'],
      ['GET', '/api/user/me'],
      ['POST', '/api/no-such-route'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).toContain("connect-src 'self' ws: wss:");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
  });

  it('are sent when PUBLIC_URL is https', async () => {
    const https = await makeApp({ PUBLIC_URL: 'https://starlight.example.org' });
    try {
      const res = await https.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    } finally {
      await https.app.close();
    }
  });
});

describe('sockets of an ended session', () => {
  let other: BuiltApp;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    other = await makeApp();
    await other.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await other?.app.close();
  });

  it('are closed on every server after logout and get no more balances', async () => {
    const m = await registerMember(t.app, 'sock');
    const here = await LiveSocket.open(t.app);
    const there = await LiveSocket.open(other.app);
    for (const s of [here, there]) {
      s.send({ type: 'auth', token: m.token });
      await s.until((ms) => ms.some((x) => x.type === 'balances'));
    }
    // A second session of the member, signed in after the logout, stays open.
    const logout = await call(t.app, m.token, 'POST', '/api/user/logout');
    expect(logout.statusCode, logout.body).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { nickOrEmail: m.nickname, password: 'Str0ng!Passw0rd' },
    });
    expect(again.statusCode, again.body).toBe(200);
    const fresh = await LiveSocket.open(other.app);
    fresh.send({ type: 'auth', token: again.json().token });
    await fresh.until((ms) => ms.some((x) => x.type === 'balances'));

    for (const s of [here, there]) {
      await s.until(() => s.closeCode !== null);
      expect(s.closeCode).toBe(SESSION_ENDED_CLOSE);
      expect(s.last('error')?.message).toBe('Not authorized');
    }
    const before = there.messages.length;
    await mint(t.app, t.admin, m.nickname, 1, '5');
    await fresh.until((ms) => ms.filter((x) => x.type === 'balances').length >= 2);
    expect(there.messages.length).toBe(before);
    expect(fresh.closeCode).toBeNull();
    fresh.close();
  });
});
