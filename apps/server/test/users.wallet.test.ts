/**
 * Wallet sign-in (SPEC §7 getNoncedMessage / registerWallet / loginWallet, §8; DESIGN §8): EIP-4361
 * messages signed with throwaway private keys; a wallet-only account registered, then signed in, each with
 * an access log row of type 2; its nickname, referrer and refusals (registered already, disabled). Every
 * refusal of a signature: users.wallet.refusals.test.ts.
 */
import type { AuthResponse, User } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { parseSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import { call, registerMember, useTestApp } from './helpers.ts';
import { newWallet, PUBLIC_URL, post, walletCalls } from './users.wallet.helpers.ts';

const t = useTestApp({ PUBLIC_URL });
const { rows, noncedMessage, signedBody, registerWallet, accountOf, accessLogCount } = walletCalls(t);

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
