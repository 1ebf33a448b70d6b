/** SQL of the e-mail tokens (DESIGN §8): issue, consume once, retire. Only a token's SHA-256 is stored. */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { mailTokens } from '../../db/schema/index.ts';

/** `verify` proves an address, `reset` sets a password, `signin` signs in once (DESIGN §8). */
export type MailTokenPurpose = 'verify' | 'reset' | 'signin';

/** Stores a token's hash for `userId` and `email`, valid until `expiresAt`. */
export async function insertMailToken(
  db: DbOrTx,
  values: { tokenHash: string; userId: string; purpose: MailTokenPurpose; email: string; expiresAt: Date },
): Promise<void> {
  await db.insert(mailTokens).values(values);
}

/**
 * Marks a live token (unused, unexpired, of `purpose`) used, in one statement, so two requests racing with
 * one token cannot both succeed. Returns its account and e-mail, or null for an unknown, used or expired one.
 */
export async function consumeMailToken(
  db: DbOrTx,
  tokenHash: string,
  purpose: MailTokenPurpose,
): Promise<{ userId: string; email: string } | null> {
  const [row] = await db
    .update(mailTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(mailTokens.tokenHash, tokenHash),
        eq(mailTokens.purpose, purpose),
        isNull(mailTokens.usedAt),
        gt(mailTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: mailTokens.userId, email: mailTokens.email });
  return row ?? null;
}

/** Retires every live token of an account for `purpose` (a reset makes the other reset links void). */
export async function retireMailTokens(db: DbOrTx, userId: string, purpose: MailTokenPurpose): Promise<void> {
  await db
    .update(mailTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(mailTokens.userId, userId), eq(mailTokens.purpose, purpose), isNull(mailTokens.usedAt)));
}
