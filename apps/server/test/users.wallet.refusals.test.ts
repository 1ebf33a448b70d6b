/**
 * Wallet sign-in refused (SPEC §7 registerWallet / loginWallet, §8; DESIGN §8): every refusal answers 401
 * `Wallet Authentication: Failed` and leaves no account, session or access log behind: no account, a
 * replayed or concurrent signature, a nonce never issued, expired or pushed out, another key or message, a
 * malformed signature, and messages forged for another domain, address, expiry or server; a wallet-only
 * account has no password sign-in.
 */
import type { AuthResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage, generateSiweNonce, parseSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import { PASSWORD, useTestApp } from './helpers.ts';
import { newWallet, PUBLIC_URL, post, walletCalls } from './users.wallet.helpers.ts';

const FAILED = 'Wallet Authentication: Failed';

const t = useTestApp({ PUBLIC_URL });
const { noncedMessage, signedBody, registerWallet, accountOf, accessLogCount } = walletCalls(t);

/** Stores `message` as the wallet's latest nonce, the way getNoncedMessage would. */
async function insertNonce(wallet: string, message: string, nonce: string, expiresAt: Date): Promise<void> {
  await t.built.database.db.execute(
    sql`INSERT INTO wallet_nonces (nonce, wallet_address, message, expires_at)
        VALUES (${nonce}, ${wallet.toLowerCase()}, ${message}, ${expiresAt.toISOString()})`,
  );
}

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

  it('a signature for a nonce the same address pushed out with three newer ones', async () => {
    const account = newWallet();
    const { walletAddress, signature } = await signedBody(account);
    for (let i = 0; i < 3; i++) await noncedMessage(account.address);
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
