/**
 * Password hashing (DESIGN §8: argon2id with @node-rs/argon2's defaults, 19 MiB and 2 passes a hash), at
 * most `HASHES_AT_ONCE` hashes or verifications at once in a process. Each holds 19 MiB while it runs and
 * keeps a core busy: a burst of 32 registrations at once ran several on libuv's threads side by side and
 * raised the server's peak memory by a hash's memory each, for no more
 * throughput than one per core gives. The rest wait their turn, in order.
 */
import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';

/** Hashes or verifications running at once: one per core. */
export const HASHES_AT_ONCE = Math.max(1, availableParallelism());

const turn = pLimit(HASHES_AT_ONCE);

/** `password` hashed with argon2id (a PHC string). */
export function hashPassword(password: string): Promise<string> {
  return turn(() => hash(password));
}

/** Whether `password` matches the PHC string `passwordHash`; false for a malformed hash too. */
export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return turn(() => verify(passwordHash, password).catch(() => false));
}

/** Hashes and verifications running now and waiting their turn (metrics and tests). */
export function passwordWork(): { running: number; waiting: number } {
  return { running: turn.activeCount, waiting: turn.pendingCount };
}
