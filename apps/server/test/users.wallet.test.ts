/**
 * Wallet sign-in (SPEC §7 getNoncedMessage / registerWallet / loginWallet, §8; DESIGN §8): EIP-4361
 * messages signed with throwaway private keys, every refusal answering 401 `Wallet Authentication: Failed`
 * and leaving no account, session or access log behind.
 */
import type { AuthResponse, NoncedMessageResponse, User } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { getAddress } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage, generateSiweNonce, parseSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import { call, PASSWORD, registerMember, useTestApp } from './helpers.ts';

const FAILED = 'Wallet Authentication: Failed';
const PUBLIC_URL = 'https://starlight.example';

const t = useTestApp({ PUBLIC_URL });

function post(app: FastifyInstance, url: string, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: `/api/user/${url}`, payload });
}

/** Rows of a query on the test database. */
async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const res = await t.built.database.db.execute(query);
  return res.rows as T[];
}

function newWallet(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

/** Asks for the message to sign for `walletAddress`; expects success. */
async function noncedMessage(walletAddress: string, app = t.app): Promise<string> {
  const res = await post(app, 'getNoncedMessage', { walletAddress });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<NoncedMessageResponse>().messageToSign;
}

/** Gets a message for `account`, signs it with `signer` (the account itself by default). */
async function signedBody(account: PrivateKeyAccount, signer: PrivateKeyAccount = account, app = t.app) {
  const message = await noncedMessage(account.address, app);
  const signature = await signer.signMessage({ message });
  return { walletAddress: account.address, signature, message };
}

async function registerWallet(account: PrivateKeyAccount, extra: Record<string, unknown> = {}) {
  const { walletAddress, signature } = await signedBody(account);
  const res = await post(t.app, 'registerWallet', { walletAddress, signature, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AuthResponse>();
}

async function accountOf(wallet: string): Promise<{ id: string } | undefined> {
  const [row] = await rows<{ id: string }>(sql`SELECT id FROM users WHERE primary_wallet = ${wallet.toLowerCase()}`);
  return row;
}

async function accessLogCount(userId: string): Promise<number> {
  const [row] = await rows<{ n: string }>(sql`SELECT count(*) AS n FROM access_logs WHERE user_id = ${userId}`);
  return Number(row?.n);
}

/** Stores `message` as the wallet's latest nonce, the way getNoncedMessage would. */
async function insertNonce(wallet: string, message: string, nonce: string, expiresAt: Date): Promise<void> {
  await t.built.database.db.execute(
    sql`INSERT INTO wallet_nonces (nonce, wallet_address, message, expires_at)
        VALUES (${nonce}, ${wallet.toLowerCase()}, ${message}, ${expiresAt.toISOString()})`,
  );
}

describe('getNoncedMessage', () => {
  it('answers an EIP-4361 message for PUBLIC_URL with a nonce that lives 10 minutes', async () => {
    const account = newWallet();
    const before = Date.now();
    const text = await noncedMessage(account.address.toLowerCase());
    const fields = parseSiweMessage(text);
    expect(fields).toMatchObject({
      domain: 'starlight.example',
      uri: PUBLIC_URL,
      address: account.address,
      version: '1',
      chainId: 1,
    });
    expect(text).toContain('Sign in to Starlight');
    expect(fields.nonce).toMatch(/^[a-zA-Z0-9]{8,}$/);
    const ttl = (fields.expirationTime?.getTime() ?? 0) - (fields.issuedAt?.getTime() ?? 0);
    expect(ttl).toBe(10 * 60 * 1000);
    expect(fields.issuedAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const stored = await rows<{ wallet_address: string; message: string }>(
      sql`SELECT wallet_address, message FROM wallet_nonces WHERE nonce = ${fields.nonce ?? ''}`,
    );
    expect(stored).toEqual([{ wallet_address: account.address.toLowerCase(), message: text }]);
  });

  it('answers 400 for an address that is not hex', async () => {
    const res = await post(t.app, 'getNoncedMessage', { walletAddress: '0xnot-an-address-at-all' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"walletAddress" contains an invalid value');
  });

  it('answers 400 when walletAddress is missing', async () => {
    const res = await post(t.app, 'getNoncedMessage', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"walletAddress" is required');
  });
});

describe('registerWallet and loginWallet', () => {
  it('registers a wallet-only account, then signs it in, each with an access log row of type 2', async () => {
    const account = newWallet();
    const reg = await registerWallet(account);
    const wallet = account.address.toLowerCase();
    expect(reg.token).toEqual(expect.any(String));
    expect(reg.user).toMatchObject({
      isWalletOnly: true,
      primaryWallet: wallet,
      email: null,
      role: 'user',
      isActive: true,
      isEmailVerified: false,
      referrer: null,
    });
    expect(reg.user.nickname).toMatch(/^[a-zA-Z0-9]{3,32}$/);
    expect(reg.user.nickname).toBe(`w${wallet.slice(2, 12)}`);
    expect(reg.message).toContain(reg.user.nickname);
    const [stored] = await rows<{ password_hash: string | null; email: string | null }>(
      sql`SELECT password_hash, email FROM users WHERE id = ${reg.user._id}`,
    );
    expect(stored).toEqual({ password_hash: null, email: null });

    const me = await call(t.app, reg.token, 'GET', '/api/user/me');
    expect(me.statusCode).toBe(200);
    expect(me.json<{ user: User }>().user.primaryWallet).toBe(wallet);

    const { walletAddress, signature } = await signedBody(account);
    const res = await post(t.app, 'loginWallet', { walletAddress, signature });
    expect(res.statusCode, res.body).toBe(200);
    const login = res.json<AuthResponse>();
    expect(login.user._id).toBe(reg.user._id);
    expect(login.token).toEqual(expect.any(String));
    expect((await call(t.app, login.token, 'GET', '/api/user/me')).statusCode).toBe(200);

    const logs = await rows<{ login_type: number; address: string }>(
      sql`SELECT login_type, address FROM access_logs WHERE user_id = ${reg.user._id}`,
    );
    expect(logs).toHaveLength(2);
    expect(logs.every((l) => l.login_type === 2)).toBe(true);
  });

  it('never answers the password hash or an API key', async () => {
    const account = newWallet();
    const { walletAddress, signature } = await signedBody(account);
    const res = await post(t.app, 'registerWallet', { walletAddress, signature });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toMatch(/passwordHash|password_hash|apiKey|argon2/);
    const login = await post(t.app, 'loginWallet', await signedBody(account).then(({ message: _m, ...b }) => b));
    expect(login.statusCode, login.body).toBe(200);
    expect(login.body).not.toMatch(/passwordHash|password_hash|apiKey|argon2/);
  });

  it('accepts the address in any case and a referrer', async () => {
    const referrer = await registerMember(t.app, 'ref');
    const account = newWallet();
    const message = await noncedMessage(account.address.toUpperCase().replace('0X', '0x'));
    const signature = await account.signMessage({ message });
    const res = await post(t.app, 'registerWallet', {
      walletAddress: account.address.toLowerCase(),
      signature,
      referrer: referrer.nickname,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AuthResponse>().user.referrer).toBe(referrer.nickname);
  });

  it('refuses an unknown referrer with 400 and creates nothing', async () => {
    const account = newWallet();
    const { walletAddress, signature } = await signedBody(account);
    const res = await post(t.app, 'registerWallet', { walletAddress, signature, referrer: 'nobodyhere123' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"referrer" contains an invalid value');
    expect(await accountOf(account.address)).toBeUndefined();
  });

  it('gives a second wallet with the same first hex digits another nickname', async () => {
    const first = newWallet();
    const reg = await registerWallet(first);
    // Take the nickname the next wallet would get by default.
    const second = newWallet();
    const taken = `w${second.address.toLowerCase().slice(2, 12)}`;
    await t.built.database.db.execute(sql`UPDATE users SET nickname = ${taken} WHERE id = ${reg.user._id}`);
    const out = await registerWallet(second);
    expect(out.user.nickname).not.toBe(taken);
    expect(out.user.nickname).toMatch(new RegExp(`^${taken}[0-9a-f]{6}$`));
  });

  it('answers 409 when the wallet is registered already', async () => {
    const account = newWallet();
    await registerWallet(account);
    const { walletAddress, signature } = await signedBody(account);
    const res = await post(t.app, 'registerWallet', { walletAddress, signature });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Wallet already registered');
    const [n] = await rows<{ n: string }>(
      sql`SELECT count(*) AS n FROM users WHERE primary_wallet = ${account.address.toLowerCase()}`,
    );
    expect(Number(n?.n)).toBe(1);
  });

  it('refuses a malformed or unknown cAppAuthRequest and opens no session (creator apps: capp.test.ts)', async () => {
    const account = newWallet();
    await registerWallet(account);
    const signed = async () => {
      const { walletAddress, signature } = await signedBody(account);
      return { walletAddress, signature };
    };
    const malformed = await post(t.app, 'loginWallet', { ...(await signed()), cAppAuthRequest: 'abc' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('"cAppAuthRequest" contains an invalid value');
    const unknown = await post(t.app, 'loginWallet', {
      ...(await signed()),
      cAppAuthRequest: '0123456789abcdef01234567',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Authorization request not found' });
  });

  it('answers 403 for a disabled account', async () => {
    const account = newWallet();
    const reg = await registerWallet(account);
    await t.built.database.db.execute(sql`UPDATE users SET is_active = false WHERE id = ${reg.user._id}`);
    const { walletAddress, signature } = await signedBody(account);
    const res = await post(t.app, 'loginWallet', { walletAddress, signature });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your account is disabled');
    expect(await accessLogCount(reg.user._id)).toBe(1);
  });
});

describe('refusals: 401 Wallet Authentication: Failed, nothing created', () => {
  /** Expects 401 with SPEC's message and no `token` in the answer. */
  function expectRefused(res: Awaited<ReturnType<typeof post>>) {
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json()).toEqual({ message: FAILED });
  }

  it('a login from a wallet without an account', async () => {
    const account = newWallet();
    const { walletAddress, signature } = await signedBody(account);
    expectRefused(await post(t.app, 'loginWallet', { walletAddress, signature }));
    expect(await accountOf(account.address)).toBeUndefined();
  });

  it('a replayed signature: a nonce is used once', async () => {
    const account = newWallet();
    const { walletAddress, signature } = await signedBody(account);
    const first = await post(t.app, 'registerWallet', { walletAddress, signature });
    expect(first.statusCode, first.body).toBe(200);
    const userId = first.json<AuthResponse>().user._id;
    expectRefused(await post(t.app, 'loginWallet', { walletAddress, signature }));
    expectRefused(await post(t.app, 'loginWallet', { walletAddress, signature }));
    expect(await accessLogCount(userId)).toBe(1);
  });

  it('the same signature sent twice at once: one wins, the other is refused', async () => {
    const account = newWallet();
    await registerWallet(account);
    const { walletAddress, signature } = await signedBody(account);
    const answers = await Promise.all([
      post(t.app, 'loginWallet', { walletAddress, signature }),
      post(t.app, 'loginWallet', { walletAddress, signature }),
      post(t.app, 'loginWallet', { walletAddress, signature }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401]);
  });

  it('a nonce that was never issued', async () => {
    const account = newWallet();
    const message = createSiweMessage({
      domain: 'starlight.example',
      uri: PUBLIC_URL,
      address: account.address,
      version: '1',
      chainId: 1,
      nonce: generateSiweNonce(),
      issuedAt: new Date(),
      expirationTime: new Date(Date.now() + 600_000),
    });
    const signature = await account.signMessage({ message });
    expectRefused(await post(t.app, 'registerWallet', { walletAddress: account.address, signature }));
    expect(await accountOf(account.address)).toBeUndefined();
  });

  it('an expired nonce', async () => {
    const account = newWallet();
    const { walletAddress, signature, message } = await signedBody(account);
    const nonce = parseSiweMessage(message).nonce ?? '';
    await t.built.database.db.execute(
      sql`UPDATE wallet_nonces SET expires_at = now() - interval '1 second' WHERE nonce = ${nonce}`,
    );
    expectRefused(await post(t.app, 'registerWallet', { walletAddress, signature }));
    expect(await accountOf(account.address)).toBeUndefined();
  });

  it("another key's signature", async () => {
    const account = newWallet();
    const { walletAddress, signature } = await signedBody(account, newWallet());
    expectRefused(await post(t.app, 'registerWallet', { walletAddress, signature }));
    expect(await accountOf(account.address)).toBeUndefined();
  });

  it('a signature of another message', async () => {
    const account = newWallet();
    await noncedMessage(account.address);
    const signature = await account.signMessage({ message: 'Something else entirely' });
    expectRefused(await post(t.app, 'registerWallet', { walletAddress: account.address, signature }));
    expect(await accountOf(account.address)).toBeUndefined();
  });

  it('a malformed signature', async () => {
    const account = newWallet();
    await noncedMessage(account.address);
    expectRefused(await post(t.app, 'registerWallet', { walletAddress: account.address, signature: '0xdeadbeef' }));
    expect(await accountOf(account.address)).toBeUndefined();
  });

  it('a signature for an earlier nonce once a newer one was issued', async () => {
    const account = newWallet();
    const { walletAddress, signature } = await signedBody(account);
    await noncedMessage(account.address);
    expectRefused(await post(t.app, 'registerWallet', { walletAddress, signature }));
    expect(await accountOf(account.address)).toBeUndefined();
  });

  /** A message like ours but with `changes`, stored as the wallet's nonce and signed by the wallet. */
  async function forged(account: PrivateKeyAccount, changes: Partial<Parameters<typeof createSiweMessage>[0]>) {
    const nonce = generateSiweNonce();
    const message = createSiweMessage({
      domain: 'starlight.example',
      uri: PUBLIC_URL,
      address: account.address,
      statement: 'Sign in to Starlight.',
      version: '1',
      chainId: 1,
      nonce,
      issuedAt: new Date(),
      expirationTime: new Date(Date.now() + 600_000),
      ...changes,
    });
    await insertNonce(account.address, message, nonce, new Date(Date.now() + 600_000));
    return { walletAddress: account.address, signature: await account.signMessage({ message }) };
  }

  it('the control: a well-made message stored as the nonce is accepted', async () => {
    const account = newWallet();
    const res = await post(t.app, 'registerWallet', await forged(account, {}));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a message for another domain', async () => {
    const account = newWallet();
    expectRefused(
      await post(
        t.app,
        'registerWallet',
        await forged(account, { domain: 'evil.example', uri: 'https://evil.example' }),
      ),
    );
    expect(await accountOf(account.address)).toBeUndefined();
  });

  it('a message whose own expiration time has passed', async () => {
    const account = newWallet();
    const body = await forged(account, {
      issuedAt: new Date(Date.now() - 20 * 60_000),
      expirationTime: new Date(Date.now() - 10 * 60_000),
    });
    expectRefused(await post(t.app, 'registerWallet', body));
    expect(await accountOf(account.address)).toBeUndefined();
  });

  it('a message for another address', async () => {
    const account = newWallet();
    const other = newWallet();
    const body = await forged(account, { address: getAddress(other.address) });
    expectRefused(await post(t.app, 'registerWallet', body));
    expect(await accountOf(account.address)).toBeUndefined();
  });

  it('a message issued by a server with another PUBLIC_URL', async () => {
    const { makeApp } = await import('./helpers.ts');
    const other = await makeApp({ PUBLIC_URL: 'https://elsewhere.example' });
    try {
      const account = newWallet();
      // Issued (and so stored) by the other server, signed, then presented to ours.
      const { walletAddress, signature } = await signedBody(account, account, other.app);
      expectRefused(await post(t.app, 'registerWallet', { walletAddress, signature }));
      expect(await accountOf(account.address)).toBeUndefined();
    } finally {
      await other.app.close();
    }
  });

  it('a password login for a wallet-only account', async () => {
    const account = newWallet();
    const reg = await registerWallet(account);
    const res = await post(t.app, 'login', { nickOrEmail: reg.user.nickname, password: PASSWORD });
    expect(res.statusCode).toBe(401);
  });
});
