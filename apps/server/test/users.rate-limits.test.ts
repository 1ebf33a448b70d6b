/**
 * Rate limits of registration and sign-in (DESIGN §8): requests per IP (RATE_LIMIT_AUTH), not moved by a
 * client's X-Forwarded-For, and failed sign-ins per account and address and per address across accounts
 * (RATE_LIMIT_LOGIN_FAILURES), forgotten after a successful sign-in. Each describe block has its own app.
 */
import { describe, expect, it } from 'vitest';
import { PASSWORD, registerMember, useTestApp } from './helpers.ts';
import { login, newAccount, register } from './users.helpers.ts';

describe('rate limits per IP', () => {
  const limited = useTestApp({ RATE_LIMIT_AUTH: '3' });

  it('limits register and login requests per IP (RATE_LIMIT_AUTH)', async () => {
    const ip = '203.0.113.10';
    for (let i = 0; i < 3; i++) {
      const res = await register(limited.app, newAccount('rl'), ip);
      expect(res.statusCode, res.body).toBe(200);
    }
    const fourth = await register(limited.app, newAccount('rl'), ip);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().message).toEqual(expect.any(String));
    // Another address is not affected.
    expect((await register(limited.app, newAccount('rl'), '203.0.113.11')).statusCode).toBe(200);
    // A client cannot pick another address with X-Forwarded-For: it is not a trusted proxy.
    const spoofed = await limited.app.inject({
      method: 'POST',
      url: '/api/user/register',
      remoteAddress: ip,
      headers: { 'x-forwarded-for': '10.9.8.7' },
      payload: newAccount('rl'),
    });
    expect(spoofed.statusCode).toBe(429);
    // Nor from a local address: no proxy is trusted unless TRUST_PROXY names it.
    const local = '127.0.0.2';
    for (let i = 0; i < 3; i++) expect((await register(limited.app, newAccount('rl'), local)).statusCode).toBe(200);
    const fromLoopback = await limited.app.inject({
      method: 'POST',
      url: '/api/user/register',
      remoteAddress: local,
      headers: { 'x-forwarded-for': '10.9.8.6' },
      payload: newAccount('rl'),
    });
    expect(fromLoopback.statusCode).toBe(429);

    const m = await registerMember(limited.app, 'rllogin');
    const loginIp = '203.0.113.12';
    for (let i = 0; i < 3; i++) {
      const res = await login(limited.app, m.nickname, PASSWORD, loginIp);
      expect(res.statusCode, res.body).toBe(200);
    }
    const blocked = await login(limited.app, m.nickname, PASSWORD, loginIp);
    expect(blocked.statusCode).toBe(429);
    expect((await login(limited.app, m.nickname, PASSWORD, '203.0.113.13')).statusCode).toBe(200);
  });
});

describe('rate limits per account', () => {
  const limited = useTestApp({ RATE_LIMIT_LOGIN_FAILURES: '3' });

  it('limits failed sign-ins per account and address (RATE_LIMIT_LOGIN_FAILURES), whatever identifier is used', async () => {
    const m = await registerMember(limited.app, 'lock');
    const other = await registerMember(limited.app, 'free');
    const stranger = '198.51.100.20';
    expect((await login(limited.app, m.nickname, 'Wr0ng!Password', stranger)).statusCode).toBe(401);
    expect((await login(limited.app, m.nickname.toUpperCase(), 'Wr0ng!Password', stranger)).statusCode).toBe(401);
    expect((await login(limited.app, m.email, 'Wr0ng!Password', stranger)).statusCode).toBe(401);
    // From that address the account is now locked, even with the right password, by nickname or e-mail.
    expect((await login(limited.app, m.nickname, PASSWORD, stranger)).statusCode).toBe(429);
    expect((await login(limited.app, m.email, PASSWORD, stranger)).statusCode).toBe(429);
    // The owner, from their own address, is not locked out by a stranger's guesses.
    expect((await login(limited.app, m.nickname, PASSWORD, '198.51.100.21')).statusCode).toBe(200);
    // Other accounts are not locked either.
    expect((await login(limited.app, other.nickname, PASSWORD, stranger)).statusCode).toBe(200);
  });

  it('limits failed sign-ins per address across accounts (5x the per-account limit)', async () => {
    const guesser = '198.51.100.30';
    const victims = await Promise.all([1, 2, 3, 4, 5, 6].map(() => registerMember(limited.app, 'many')));
    let refused = 0;
    for (const v of victims) {
      for (let i = 0; i < 3; i++) {
        const res = await login(limited.app, v.nickname, 'Wr0ng!Password', guesser);
        if (res.statusCode === 429) refused++;
      }
    }
    // 15 failures are counted, then the address is refused whatever the account.
    expect(refused).toBe(3);
    expect((await login(limited.app, victims[5]?.nickname ?? '', PASSWORD, guesser)).statusCode).toBe(429);
    expect((await login(limited.app, victims[5]?.nickname ?? '', PASSWORD, '198.51.100.31')).statusCode).toBe(200);
  });

  it('forgets failures after a successful sign-in', async () => {
    const m = await registerMember(limited.app, 'reset');
    for (let round = 0; round < 2; round++) {
      expect((await login(limited.app, m.nickname, 'Wr0ng!Password')).statusCode).toBe(401);
      expect((await login(limited.app, m.nickname, 'Wr0ng!Password')).statusCode).toBe(401);
      expect((await login(limited.app, m.nickname, PASSWORD)).statusCode).toBe(200);
    }
  });
});
