/**
 * Idempotency keys for money-moving POSTs (DESIGN §3). The key row is written in the operation's own
 * transaction: a concurrent repeat waits on the unique index, then replays the stored response; a
 * failed first attempt rolls its key back, so a retry runs again. Same key, other body: 409.
 */
import { createHash } from 'node:crypto';
import { AppError } from '@starlight/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/index.ts';
import { inTransaction, type TransactionOptions } from '../db/transaction.ts';

/** The request's `Idempotency-Key` header (the first, if sent twice), or undefined when none. */
export function idempotencyKey(req: FastifyRequest): string | undefined {
  const v = req.headers['idempotency-key'];
  return Array.isArray(v) ? v[0] : v;
}

function requestHash(route: string, body: unknown): string {
  const text = JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
  return createHash('sha256').update(route).update('\n').update(text).digest('hex');
}

/**
 * Runs `work` in one transaction under `key` (the Idempotency-Key header, or undefined for none);
 * `txOpts`: how the transaction runs (`TransactionOptions`).
 * Returns the first response for a repeat of the same request. Throws CONFLICT for a reused key
 * with another body, VALIDATION for a malformed key.
 */
export async function withIdempotency<T>(
  db: Db,
  opts: { userId: string; key: string | undefined; route: string; body: unknown },
  work: (tx: Tx) => Promise<T>,
  txOpts?: TransactionOptions,
): Promise<T> {
  const { key, userId } = opts;
  if (key === undefined) return inTransaction(db, work, txOpts);
  if (key.length < 1 || key.length > 255) {
    throw new AppError('VALIDATION', '"Idempotency-Key" contains an invalid value');
  }
  const hash = requestHash(opts.route, opts.body);
  return inTransaction(
    db,
    async (tx) => {
      const inserted = await tx.execute(sql`
      INSERT INTO idempotency_keys (user_id, key, request_hash) VALUES (${userId}, ${key}, ${hash})
      ON CONFLICT DO NOTHING RETURNING 1`);
      if (inserted.rows.length === 0) {
        const [row] = await tx
          .select()
          .from(idempotencyKeys)
          .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
        if (!row || row.requestHash !== hash || row.response === null) {
          throw new AppError('CONFLICT', 'This Idempotency-Key was used for another request');
        }
        return JSON.parse(row.response) as T;
      }
      const result = await work(tx);
      await tx
        .update(idempotencyKeys)
        .set({ response: JSON.stringify(result) })
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
      return result;
    },
    txOpts,
  );
}

/**
 * Whether `opts` repeats a request that already completed under its Idempotency-Key (same route and body),
 * so `withIdempotency` will replay its answer: a check that would refuse the repeat (a step-up code, used
 * once by the first attempt) is skipped for it. False without a key.
 */
export async function isCompletedRepeat(
  db: Db,
  opts: { userId: string; key: string | undefined; route: string; body: unknown },
): Promise<boolean> {
  if (opts.key === undefined) return false;
  const [row] = await db
    .select({ requestHash: idempotencyKeys.requestHash, response: idempotencyKeys.response })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, opts.userId), eq(idempotencyKeys.key, opts.key)));
  return row !== undefined && row.response !== null && row.requestHash === requestHash(opts.route, opts.body);
}
