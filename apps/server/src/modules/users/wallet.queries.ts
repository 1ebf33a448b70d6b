/**
 * SQL of wallet sign-in (DESIGN §8 Sign-In with Ethereum): the issued nonces and wallet accounts.
 * Reads other modules' tables: `users` (the accounts module's: a wallet account is found by its primary wallet).
 */
import { and, desc, eq, gt, inArray, lte, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { users, walletNonces } from '../../db/schema/index.ts';
import type { UserRow } from '../accounts/accounts.public.ts';

/**
 * Stores the message issued for `walletAddress` (lowercased) under its nonce. The wallet's earlier
 * nonces are dropped (only the latest one can be used, see `takeLatestNonce`), and so is every expired
 * nonce, so the table holds at most one live row per wallet.
 */
export async function insertWalletNonce(
  db: DbOrTx,
  row: { nonce: string; walletAddress: string; message: string; expiresAt: Date },
): Promise<void> {
  await db
    .delete(walletNonces)
    .where(or(eq(walletNonces.walletAddress, row.walletAddress), lte(walletNonces.expiresAt, new Date())));
  await db.insert(walletNonces).values(row);
}

/**
 * Takes the latest unexpired message issued for `walletAddress` (lowercased) and deletes it in the same
 * statement (`DELETE ... RETURNING`), so a nonce is used once even when two requests race for it: the
 * loser finds the row gone and gets null. Null when no live nonce exists.
 */
export async function takeLatestNonce(
  db: DbOrTx,
  walletAddress: string,
): Promise<{ nonce: string; message: string } | null> {
  const latest = db
    .select({ nonce: walletNonces.nonce })
    .from(walletNonces)
    .where(and(eq(walletNonces.walletAddress, walletAddress), gt(walletNonces.expiresAt, new Date())))
    .orderBy(desc(walletNonces.createdAt))
    .limit(1);
  const [row] = await db
    .delete(walletNonces)
    .where(inArray(walletNonces.nonce, latest))
    .returning({ nonce: walletNonces.nonce, message: walletNonces.message });
  return row ?? null;
}

/** The account whose `primary_wallet` is `walletAddress` (lowercased), or null. */
export async function findUserByWallet(db: DbOrTx, walletAddress: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.primaryWallet, walletAddress)).limit(1);
  return row ?? null;
}
