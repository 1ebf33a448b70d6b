/**
 * The system accounts (`users.is_system`): accounts the server makes for itself, never a member's, kept
 * off the leaderboard and out of sign-up. Today one: the synth chip sale's (DESIGN §7).
 */
import type { DbOrTx } from '../../db/client.ts';
import { findUserByNickname, insertUser, type UserRow } from './accounts.queries.ts';

/** The system account that holds the chips on sale and receives the Credits paid for them. */
export const SALE_NICKNAME = 'synthsale';

/**
 * The system account `nickname` (role `role`), made in `db`'s transaction when missing. Throws when a
 * member already holds the nickname: the seed stops rather than hand a member's account to the server.
 */
export async function ensureSystemAccount(db: DbOrTx, nickname: string, role: 'creator'): Promise<UserRow> {
  const taken = await findUserByNickname(db, nickname);
  if (taken && !taken.isSystem)
    throw new Error(`The nickname ${nickname} belongs to a member: rename it to seed the chip sale`);
  return taken ?? (await insertUser(db, { nickname, email: null, passwordHash: null, role, isSystem: true }));
}
