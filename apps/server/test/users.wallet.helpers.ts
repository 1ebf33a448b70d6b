/**
 * Helpers of the wallet sign-in tests (users.wallet.test.ts, users.wallet.refusals.test.ts): throwaway
 * wallets, the messages the server asks them to sign, wallet-only accounts registered through the API,
 * and what the database holds of a wallet.
 */
import type { AuthResponse, NoncedMessageResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import type { TestApp } from './helpers.ts';
import { userRows } from './users.helpers.ts';

/** The PUBLIC_URL the files' apps run with: the messages name it. */
export const PUBLIC_URL = 'https://starlight.example';

/** POST /api/user/`url` without a session. */
export function post(app: FastifyInstance, url: string, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: `/api/user/${url}`, payload });
}

/** A wallet with a fresh private key. */
export function newWallet(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

/** The wallet calls and queries of a test file's app `t` (read when called). */
export function walletCalls(t: TestApp) {
  const { rows } = userRows(t);

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

  return { rows, noncedMessage, signedBody, registerWallet, accountOf, accessLogCount };
}
