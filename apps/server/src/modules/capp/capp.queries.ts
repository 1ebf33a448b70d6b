/**
 * SQL of creator-app consent (DESIGN §7): requests, codes (by their SHA-256) and grants.
 * Reads other modules' tables: `item_collections` (the app's collection named in a grant) and `users` (the member and the creator by nickname), in the same statement as the grant.
 */
import { CAPP_TTL_SECONDS } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { newObjectId } from '../../lib/ids.ts';

/** Opens a consent request on `collectionId`, alive for 10 minutes. Returns its id. */
export async function insertAuthRequest(
  db: DbOrTx,
  values: { collectionId: string; redirectUrl: string; cancelUrl: string; customMessage: string },
): Promise<string> {
  const id = newObjectId();
  await db.execute(sql`
    INSERT INTO capp_auth_requests (id, collection_id, redirect_url, cancel_url, custom_message, expires_at)
    VALUES (${id}, ${values.collectionId}, ${values.redirectUrl}, ${values.cancelUrl}, ${values.customMessage},
            now() + make_interval(secs => ${CAPP_TTL_SECONDS}))`);
  return id;
}

/** A consent request as the consent page and the sign-in read it, with whether it can still be used. */
export interface AuthRequestRow {
  id: string;
  collectionId: string;
  collectionName: string;
  creatorNickname: string;
  redirectUrl: string;
  cancelUrl: string;
  customMessage: string;
  isUsed: boolean;
  isExpired: boolean;
}

/** The request `id` with its collection and creator, or null. */
export async function findAuthRequest(db: DbOrTx, id: string): Promise<AuthRequestRow | null> {
  const res = await db.execute<{
    id: string;
    collection_id: string;
    collection_name: string;
    creator_nickname: string;
    redirect_url: string;
    cancel_url: string;
    custom_message: string;
    is_used: boolean;
    is_expired: boolean;
  }>(sql`
    SELECT r.id, r.collection_id, c.name AS collection_name, u.nickname AS creator_nickname, r.redirect_url,
           r.cancel_url, r.custom_message, r.used_at IS NOT NULL AS is_used, r.expires_at <= now() AS is_expired
    FROM capp_auth_requests r
    JOIN item_collections c ON c.id = r.collection_id
    JOIN users u ON u.id = c.creator_id
    WHERE r.id = ${id}`);
  const r = res.rows[0];
  return r
    ? {
        id: r.id,
        collectionId: r.collection_id,
        collectionName: r.collection_name,
        creatorNickname: r.creator_nickname,
        redirectUrl: r.redirect_url,
        cancelUrl: r.cancel_url,
        customMessage: r.custom_message,
        isUsed: r.is_used,
        isExpired: r.is_expired,
      }
    : null;
}

/**
 * Uses the live request `id` for `userId`, once: one conditional UPDATE, so of two concurrent sign-ins
 * one wins. Returns its collection, redirect and cancel URLs, or null when it is unknown, used or expired.
 */
export async function useAuthRequest(
  db: DbOrTx,
  id: string,
  userId: string,
): Promise<{ collectionId: string; redirectUrl: string; cancelUrl: string } | null> {
  const res = await db.execute<{ collection_id: string; redirect_url: string; cancel_url: string }>(sql`
    UPDATE capp_auth_requests SET used_at = now(), user_id = ${userId}
    WHERE id = ${id} AND used_at IS NULL AND expires_at > now()
    RETURNING collection_id, redirect_url, cancel_url`);
  const r = res.rows[0];
  return r ? { collectionId: r.collection_id, redirectUrl: r.redirect_url, cancelUrl: r.cancel_url } : null;
}

/** Stores a code (its SHA-256) for the used request, alive 10 minutes, and grants the member's consent. */
export async function insertCodeAndGrant(
  db: DbOrTx,
  values: { codeHash: string; requestId: string; userId: string; collectionId: string },
): Promise<void> {
  await db.execute(sql`
    WITH code AS (
      INSERT INTO capp_codes (code_hash, request_id, user_id, collection_id, expires_at)
      VALUES (${values.codeHash}, ${values.requestId}, ${values.userId}, ${values.collectionId},
              now() + make_interval(secs => ${CAPP_TTL_SECONDS})))
    INSERT INTO capp_grants (user_id, collection_id) VALUES (${values.userId}, ${values.collectionId})
    ON CONFLICT (user_id, collection_id) DO UPDATE SET granted_at = now(), revoked_at = NULL`);
}

/** A code found by its hash, locked, with its collection's creator. */
export interface CodeRow {
  userId: string;
  nickname: string;
  collectionId: string;
  creatorId: string;
  isUsed: boolean;
  isExpired: boolean;
}

/** The code whose SHA-256 is `codeHash`, locked FOR UPDATE (so a redemption happens once), or null. */
export async function lockCode(db: DbOrTx, codeHash: string): Promise<CodeRow | null> {
  const res = await db.execute<{
    user_id: string;
    nickname: string;
    collection_id: string;
    creator_id: string;
    is_used: boolean;
    is_expired: boolean;
  }>(sql`
    SELECT k.user_id, u.nickname, k.collection_id, c.creator_id, k.used_at IS NOT NULL AS is_used,
           k.expires_at <= now() AS is_expired
    FROM capp_codes k JOIN users u ON u.id = k.user_id JOIN item_collections c ON c.id = k.collection_id
    WHERE k.code_hash = ${codeHash}
    FOR UPDATE OF k`);
  const r = res.rows[0];
  return r
    ? {
        userId: r.user_id,
        nickname: r.nickname,
        collectionId: r.collection_id,
        creatorId: r.creator_id,
        isUsed: r.is_used,
        isExpired: r.is_expired,
      }
    : null;
}

/** Marks the code used. */
export async function markCodeUsed(db: DbOrTx, codeHash: string): Promise<void> {
  await db.execute(sql`UPDATE capp_codes SET used_at = now() WHERE code_hash = ${codeHash}`);
}

/** Revokes the member's grant to the collection's app (RFC 6749 §4.1.2: a reused code). */
export async function revokeGrant(db: DbOrTx, userId: string, collectionId: string): Promise<void> {
  await db.execute(sql`
    UPDATE capp_grants SET revoked_at = now()
    WHERE user_id = ${userId} AND collection_id = ${collectionId} AND revoked_at IS NULL`);
}

/** True when the member's grant to the collection's app is live. */
export async function hasLiveGrant(db: DbOrTx, userId: string, collectionId: string): Promise<boolean> {
  const res = await db.execute<{ ok: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM capp_grants
                   WHERE user_id = ${userId} AND collection_id = ${collectionId} AND revoked_at IS NULL) AS ok`);
  return res.rows[0]?.ok === true;
}
