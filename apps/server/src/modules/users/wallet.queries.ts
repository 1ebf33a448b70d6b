/**
 * SQL of wallet sign-in (DESIGN §8 Sign-In with Ethereum): the issued nonces and wallet accounts.
 * Reads other modules' tables: `users` (the accounts module's: a wallet account is found by its primary wallet).
 */
import { and, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { users, walletNonces } from '../../db/schema/index.ts';
import type { UserRow } from '../accounts/accounts.public.ts';

/** The advisory lock namespace of wallets' nonces (`lockWalletNonces`). */
const WALLET_NONCE_LOCK_NAMESPACE = 0x5107;

/**
 * Takes the transaction's advisory lock of `walletAddress`'s nonces (lowercased), so the issues of nonces
 * for one wallet, on any replica, count and trim its live nonces one after the other.
 */
export async function lockWalletNonces(tx: DbOrTx, walletAddress: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${WALLET_NONCE_LOCK_NAMESPACE}, hashtext(${walletAddress}))`);
}

/** A live nonce of a wallet: who it was issued to (`requester`, `known`) and when. */
export interface LiveNonce {
  nonce: string;
  message: string;
  requester: string;
  known: boolean;
  createdAt: Date;
}

/** Deletes every wallet's expired nonces (with each issue, so the table keeps only about the live ones). */
export async function deleteExpiredNonces(db: DbOrTx): Promise<void> {
  await db.delete(walletNonces).where(lte(walletNonces.expiresAt, new Date()));
}

/** The unexpired nonces issued for `walletAddress` (lowercased), newest first, at most `limit`. */
export async function liveNonces(db: DbOrTx, walletAddress: string, limit: number): Promise<LiveNonce[]> {
  const now = new Date();
  return db
    .select({
      nonce: walletNonces.nonce,
      message: walletNonces.message,
      requester: walletNonces.requester,
      known: walletNonces.known,
      createdAt: walletNonces.createdAt,
    })
    .from(walletNonces)
    .where(and(eq(walletNonces.walletAddress, walletAddress), gt(walletNonces.expiresAt, now)))
    .orderBy(desc(walletNonces.createdAt), desc(walletNonces.nonce))
    .limit(limit);
}

/**
 * Stores the message issued for `walletAddress` (lowercased) under its nonce, created at the database's
 * clock (`clock_timestamp()`, so the later of two issues is the newer), and drops the nonces `evict`.
 */
export async function insertWalletNonce(
  db: DbOrTx,
  row: { nonce: string; walletAddress: string; message: string; requester: string; known: boolean; expiresAt: Date },
  evict: readonly string[],
): Promise<void> {
  if (evict.length > 0) await db.delete(walletNonces).where(inArray(walletNonces.nonce, [...evict]));
  await db.insert(walletNonces).values({ ...row, createdAt: sql`clock_timestamp()` });
}

/**
 * Deletes `walletAddress`'s live nonce `nonce` and answers whether this call did (`DELETE ... RETURNING`):
 * a nonce is used once even when two requests race for it, the loser finds the row gone and gets false.
 */
export async function takeNonce(db: DbOrTx, walletAddress: string, nonce: string): Promise<boolean> {
  const rows = await db
    .delete(walletNonces)
    .where(
      and(
        eq(walletNonces.nonce, nonce),
        eq(walletNonces.walletAddress, walletAddress),
        gt(walletNonces.expiresAt, new Date()),
      ),
    )
    .returning({ nonce: walletNonces.nonce });
  return rows.length === 1;
}

/** The account whose `primary_wallet` is `walletAddress` (lowercased), or null. */
export async function findUserByWallet(db: DbOrTx, walletAddress: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.primaryWallet, walletAddress)).limit(1);
  return row ?? null;
}
