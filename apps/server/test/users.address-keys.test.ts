/**
 * Every per-address limit counts an IPv6 client by its /64 (lib/client-address.ts), an IPv4-mapped IPv6
 * address as its IPv4 one: register, sign-in requests and failed sign-ins, wallet nonces and mails, each
 * sent from many addresses of one /64 (fastify inject's `remoteAddress`, what the socket would give).
 */
import { describe, expect, it } from 'vitest';
import { PASSWORD, registerMember, useTestApp } from './helpers.ts';
import { login, newAccount, register } from './users.helpers.ts';
import { newWallet } from './users.wallet.helpers.ts';

/** `count` addresses of the IPv6 /64 `prefix` (four groups), each with another interface identifier. */
function addressesOf(prefix: string, count: number): string[] {
  const group = (n: number) => (n % 0x10000).toString(16);
  return Array.from({ length: count }, (_, i) => `${prefix}:${group(i * 7919 + 1)}:${group(i)}:a:${group(i + 1)}`);
}

describe('per-address request limits (RATE_LIMIT_AUTH) by IPv6 /64', () => {
  const t = useTestApp({ RATE_LIMIT_AUTH: '3' });

  /** POST /api/user/`url` with `payload` from `remoteAddress`. */
  const from = (remoteAddress: string, url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/api/user/${url}`, payload, remoteAddress });

  it('register: addresses of one /64 share one budget, another /64 has its own', async () => {
    const [a, b, c, d] = addressesOf('2001:db8:10:1', 4);
    for (const ip of [a, b, c]) {
      const res = await register(t.app, newAccount('v6r'), ip);
      expect(res.statusCode, `${ip}: ${res.body}`).toBe(200);
    }
    expect((await register(t.app, newAccount('v6r'), d)).statusCode).toBe(429);
    expect((await register(t.app, newAccount('v6r'), '2001:db8:10:1::ffff')).statusCode).toBe(429);
    // The next /64, and the one beside it in the other direction, are other clients.
    expect((await register(t.app, newAccount('v6r'), '2001:db8:10:2::1')).statusCode).toBe(200);
    expect((await register(t.app, newAccount('v6r'), '2001:db8:10:0::1')).statusCode).toBe(200);
  });

  it('register: an IPv4-mapped IPv6 address counts as its IPv4 address', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await register(t.app, newAccount('v4m'), '::ffff:203.0.113.60')).statusCode).toBe(200);
    }
    expect((await register(t.app, newAccount('v4m'), '203.0.113.60')).statusCode).toBe(429);
    expect((await register(t.app, newAccount('v4m'), '203.0.113.61')).statusCode).toBe(200);
  });

  it('login requests: one /64 shares one budget', async () => {
    const m = await registerMember(t.app, 'v6l');
    const ips = addressesOf('2001:db8:11:1', 4);
    for (const ip of ips.slice(0, 3)) expect((await login(t.app, m.nickname, PASSWORD, ip)).statusCode).toBe(200);
    expect((await login(t.app, m.nickname, PASSWORD, ips[3])).statusCode).toBe(429);
    expect((await login(t.app, m.nickname, PASSWORD, '2001:db8:11:2::1')).statusCode).toBe(200);
  });

  it('wallet nonces: one /64 shares one budget', async () => {
    const ips = addressesOf('2001:db8:12:1', 4);
    for (const ip of ips.slice(0, 3)) {
      const res = await from(ip, 'getNoncedMessage', { walletAddress: newWallet().address });
      expect(res.statusCode, res.body).toBe(200);
    }
    const fourth = await from(ips[3] ?? '', 'getNoncedMessage', { walletAddress: newWallet().address });
    expect(fourth.statusCode).toBe(429);
    const other = await from('2001:db8:12:2::1', 'getNoncedMessage', { walletAddress: newWallet().address });
    expect(other.statusCode).toBe(200);
  });

  it('mails (forgotPassword): one /64 shares one budget', async () => {
    const ips = addressesOf('2001:db8:13:1', 4);
    for (const ip of ips.slice(0, 3)) {
      expect((await from(ip, 'forgotPassword', { email: 'nobody@example.test' })).statusCode).toBe(200);
    }
    expect((await from(ips[3] ?? '', 'forgotPassword', { email: 'nobody@example.test' })).statusCode).toBe(429);
    expect((await from('2001:db8:13:2::1', 'forgotPassword', { email: 'nobody@example.test' })).statusCode).toBe(200);
  });
});

describe('failed sign-ins per address by IPv6 /64 (RATE_LIMIT_LOGIN_FAILURES)', () => {
  const t = useTestApp({ RATE_LIMIT_LOGIN_FAILURES: '3' });

  it('failures from many addresses of one /64 count together against the account', async () => {
    const m = await registerMember(t.app, 'v6f');
    const ips = addressesOf('2001:db8:20:1', 5);
    for (const ip of ips.slice(0, 3)) {
      expect((await login(t.app, m.nickname, 'Wr0ng!Password', ip)).statusCode).toBe(401);
    }
    // A fresh address of the same /64 is the same guesser: refused, not checked.
    const next = await login(t.app, m.nickname, 'Wr0ng!Password', ips[3]);
    expect(next.statusCode, next.body).toBe(429);
    // Another /64 (the owner's line) is not.
    expect((await login(t.app, m.nickname, PASSWORD, '2001:db8:20:2::1')).statusCode).toBe(200);
  });

  it('failures across accounts from one /64 count together (5x the per-account limit)', async () => {
    const victims = await Promise.all([1, 2, 3, 4, 5, 6].map(() => registerMember(t.app, 'v6m')));
    const ips = addressesOf('2001:db8:21:1', 18);
    let refused = 0;
    let n = 0;
    for (const v of victims) {
      for (let i = 0; i < 3; i++) {
        const res = await login(t.app, v.nickname, 'Wr0ng!Password', ips[n++]);
        if (res.statusCode === 429) refused++;
      }
    }
    expect(refused).toBe(3);
  });
});
