/**
 * Wallet sign-in nonces (DESIGN §8, users/wallet.service.ts): 128 CSPRNG bits each, several live per
 * wallet, used up only by a valid signature, so neither a stranger's nonce request nor a bogus signature
 * stops the owner's sign-in; a requester's own nonces and strangers' nonces per wallet are capped, the
 * account's known addresses never refused; the state is the database's, so replicas share it.
 */
import type { NoncedMessageResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { PrivateKeyAccount } from 'viem/accounts';
import { parseSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import { makeApp, useTestApp } from './helpers.ts';
import { newWallet, PUBLIC_URL, post, walletCalls } from './users.wallet.helpers.ts';

const t = useTestApp({ PUBLIC_URL });
const { rows, noncedMessage, registerWallet } = walletCalls(t);

/** POST /api/user/`url` from `remoteAddress`. */
function from(remoteAddress: string, url: string, payload: Record<string, unknown>, app: FastifyInstance = t.app) {
  return app.inject({ method: 'POST', url: `/api/user/${url}`, payload, remoteAddress });
}

/** The message issued to `remoteAddress` for `wallet`; expects success. */
async function messageFor(remoteAddress: string, wallet: string, app: FastifyInstance = t.app): Promise<string> {
  const res = await from(remoteAddress, 'getNoncedMessage', { walletAddress: wallet }, app);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<NoncedMessageResponse>().messageToSign;
}

/** Signs `message` with `account` and signs in (`loginWallet`, or `registerWallet`) from `remoteAddress`. */
async function signIn(account: PrivateKeyAccount, message: string, remoteAddress: string, url = 'loginWallet') {
  const signature = await account.signMessage({ message });
  return from(remoteAddress, url, { walletAddress: account.address, signature });
}

/** The live nonces stored for `wallet`. */
async function storedNonces(wallet: string): Promise<number> {
  const [row] = await rows<{ n: string }>(
    sql`SELECT count(*) AS n FROM wallet_nonces WHERE wallet_address = ${wallet.toLowerCase()}`,
  );
  return Number(row?.n);
}

/** The owner's address: inject's default, the one `registerWallet` signs up from, so the account knows it. */
const OWNER = '127.0.0.1';

describe('nonces', () => {
  it('are 128 bits from the CSPRNG: 32 hex digits, unique, and unrelated to the one before', async () => {
    const nonces: string[] = [];
    for (let i = 0; i < 40; i++) {
      const message = await noncedMessage(newWallet().address);
      nonces.push(parseSiweMessage(message).nonce ?? '');
    }
    for (const nonce of nonces) expect(nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(nonces).size).toBe(nonces.length);
    // No run of 8 characters of a nonce comes back in the next one (viem's generateSiweNonce is a window
    // sliding one character along one Math.random() string).
    for (let i = 1; i < nonces.length; i++) {
      const prev = nonces[i - 1] ?? '';
      const runs = Array.from({ length: prev.length - 7 }, (_, j) => prev.slice(j, j + 8));
      expect(runs.filter((run) => nonces[i]?.includes(run))).toEqual([]);
    }
    // Every hex digit turns up, each about as often as the others (1280 digits, 80 expected each).
    const counts = new Map<string, number>();
    for (const c of nonces.join('')) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(16);
    for (const n of counts.values()) expect(n).toBeGreaterThan(40);
  });
});

describe("nobody else can spoil a wallet's sign-in", () => {
  it("a stranger's nonce requests for the wallet leave the owner's pending nonce usable", async () => {
    const owner = newWallet();
    await registerWallet(owner);
    const mine = await messageFor(OWNER, owner.address);
    for (const stranger of ['198.51.100.7', '2001:db8:30:1::1', '2001:db8:30:2::1']) {
      await messageFor(stranger, owner.address);
      await messageFor(stranger, owner.address);
    }
    const res = await signIn(owner, mine, OWNER);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a bogus signature uses up no nonce: the owner then signs in', async () => {
    const owner = newWallet();
    await registerWallet(owner);
    const mine = await messageFor(OWNER, owner.address);
    const stranger = '198.51.100.8';
    const theirs = await messageFor(stranger, owner.address);
    const impostor = newWallet();
    for (const signature of [
      await impostor.signMessage({ message: theirs }),
      await impostor.signMessage({ message: mine }),
      `0x${'1b'.repeat(65)}`,
      '0xdeadbeef',
    ]) {
      const res = await from(stranger, 'loginWallet', { walletAddress: owner.address, signature });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Wallet Authentication: Failed' });
    }
    expect(await storedNonces(owner.address)).toBe(2);
    const res = await signIn(owner, mine, OWNER);
    expect(res.statusCode, res.body).toBe(200);
    // Only the signed nonce was used up: the stranger's is still there, and a replay is refused.
    expect(await storedNonces(owner.address)).toBe(1);
    expect((await signIn(owner, mine, OWNER)).statusCode).toBe(401);
  });

  it('the same for a wallet registering: a stranger cannot void its first nonce', async () => {
    const owner = newWallet();
    const mine = await messageFor('2001:db8:31:1::5', owner.address);
    const stranger = '2001:db8:31:2::5';
    await messageFor(stranger, owner.address);
    const bogus = await from(stranger, 'registerWallet', { walletAddress: owner.address, signature: '0xdeadbeef' });
    expect(bogus.statusCode).toBe(401);
    const res = await signIn(owner, mine, '2001:db8:31:1::6', 'registerWallet');
    expect(res.statusCode, res.body).toBe(200);
  });

  it('works across replicas: the nonces live in the database', async () => {
    const other = await makeApp({ PUBLIC_URL });
    try {
      const owner = newWallet();
      await registerWallet(owner);
      const mine = await messageFor(OWNER, owner.address);
      await messageFor('198.51.100.9', owner.address, other.app);
      const bogus = await from(
        '198.51.100.9',
        'loginWallet',
        { walletAddress: owner.address, signature: '0x00' },
        other.app,
      );
      expect(bogus.statusCode).toBe(401);
      const signature = await owner.signMessage({ message: mine });
      const res = await from(OWNER, 'loginWallet', { walletAddress: owner.address, signature }, other.app);
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      await other.app.close();
    }
  });
});

describe('nonces per wallet are limited', () => {
  it('one requester holds 3 live nonces of a wallet: a 4th pushes out its oldest, no one else is touched', async () => {
    const owner = newWallet();
    const requester = '2001:db8:32:1::1';
    const messages: string[] = [];
    for (let i = 0; i < 4; i++) messages.push(await messageFor(requester, owner.address));
    // Another address of the same /64 is the same requester.
    messages.push(await messageFor('2001:db8:32:1:ffff::2', owner.address));
    const otherRequester = await messageFor('2001:db8:32:2::1', owner.address);
    expect(await storedNonces(owner.address)).toBe(4);
    const [oldest, second] = messages;
    expect((await signIn(owner, oldest ?? '', requester, 'registerWallet')).statusCode).toBe(401);
    expect((await signIn(owner, second ?? '', requester, 'registerWallet')).statusCode).toBe(401);
    expect((await signIn(owner, messages[2] ?? '', requester, 'registerWallet')).statusCode).toBe(200);
    expect((await signIn(owner, otherRequester, requester)).statusCode).toBe(200);
  });

  it("strangers hold at most 5 live nonces of a wallet together; the owner's known address is not refused", async () => {
    const owner = newWallet();
    await registerWallet(owner, {});
    // registerWallet signs in from inject's default address, which the account now knows.
    const strangers = ['198.51.100.21', '198.51.100.22', '2001:db8:33:1::1', '2001:db8:33:2::1', '2001:db8:33:3::1'];
    for (const ip of strangers) await messageFor(ip, owner.address);
    const sixth = await from('2001:db8:33:4::1', 'getNoncedMessage', { walletAddress: owner.address });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toEqual(expect.any(String));
    // A stranger already holding one may renew it (its own oldest goes), without growing the set.
    await messageFor(strangers[0] ?? '', owner.address);
    expect(await storedNonces(owner.address)).toBe(5);
    // The owner, from the address the account knows, still gets nonces and signs in.
    const mine = await noncedMessage(owner.address);
    const res = await post(t.app, 'loginWallet', {
      walletAddress: owner.address,
      signature: await owner.signMessage({ message: mine }),
    });
    expect(res.statusCode, res.body).toBe(200);
    // Once a stranger's nonce expires, another stranger gets one.
    await t.built.database.db.execute(
      sql`UPDATE wallet_nonces SET expires_at = now() - interval '1 second'
          WHERE wallet_address = ${owner.address.toLowerCase()} AND requester = '198.51.100.22'`,
    );
    await messageFor('2001:db8:33:4::1', owner.address);
  });
});
