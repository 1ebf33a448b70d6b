/**
 * Authentication (DESIGN §8, §11.1): HS256 JWTs of 24 hours carrying the user id, role, token version and
 * session id (`sid`). Every request to a non-public route loads its session and account, so an ended
 * session (logout, Settings, an admin), a bumped version (password reset, role change) or a deactivation
 * ends it at once on every server process (401 `Not authorized`). Roles are
 * enforced here, per route. An `x-api-key` header authenticates as its member on member and creator
 * routes, never on admin routes nor on routes that manage the account (`config.sessionOnly`: 403); a bearer token wins when both are sent; a key in the query
 * string is refused (401) and never used, since URLs end up in logs and browser histories. A key works only
 * on routes whose `config.scope` it holds and from its allowed addresses (403), until it expires or is
 * revoked (401), checked on every request like a session (DESIGN §11.2). With `ADMIN_MFA=required` an admin
 * route also needs a session that passed a second factor (403 `ADMIN_MFA_MESSAGE`, DESIGN §11.1). A CSV
 * export (`config.downloadLink`) also opens with a single-use download link, `?token=`, as the session
 * that made it (DESIGN §11.6).
 */
import { randomUUID } from 'node:crypto';
import { AppError, MESSAGES } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import { type Db, queryNamed } from '../db/client.ts';
import { pgArray } from '../db/pg-array.ts';
import { type Access, type AuthUser, SESSION_ONLY_MESSAGE } from '../http/access.ts';
import { hashApiKey } from '../lib/api-key-crypto.ts';
import { GroupCommit } from '../lib/group-commit.ts';
import { ipAllowed } from '../lib/ip-ranges.ts';
import { upTo } from '../lib/lru.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Signs a session token for a user, valid until `user.expiresAt` (its session's end, SPEC §9: 24 hours). */
    signSession(user: SessionClaims): Promise<string>;
  }
}

/**
 * Whether the account `u` has TOTP on (`user_totp`, the mfa module's table), read with the session or key so
 * a step-up check (DESIGN §11.1) costs no round trip of its own.
 */
const TOTP_ON = sql`EXISTS (SELECT 1 FROM user_totp t WHERE t.user_id = u.id AND t.enabled_at IS NOT NULL)`;

/** Verified tokens kept so a signature is checked once per token, not once per request (DESIGN §9). */
const VERIFIED_TOKENS = 10_000;

/**
 * What a session token carries: the account, its role and token version, the session (`user_sessions`) and
 * when the session ends (its row's `expires_at`).
 */
export interface SessionClaims {
  id: string;
  role: string;
  tokenVersion: number;
  sessionId: string;
  expiresAt: Date;
}

/** What a verified token says: its subject, token version, session and expiry (epoch milliseconds). */
interface VerifiedToken {
  sub: string;
  tv: unknown;
  sid: string;
  expiresAt: number;
}

/**
 * What every signed-in request reads of its session and account (`user_sessions` joined to `users`): the
 * session holds while these allow it.
 */
interface SessionAccount {
  sid: string;
  ended: boolean;
  second_factor: boolean;
  /** The session's last-seen time is older than `LAST_SEEN_STEP_MS`: this request moves it. */
  stale: boolean;
  id: string;
  nickname: string;
  role: string;
  is_active: boolean;
  token_version: number;
  totp_on: boolean;
}

/** What every request with an `x-api-key` reads of its key and account (`api_keys` joined to `users`). */
interface KeyAccount {
  key_id: string;
  hash: string;
  scopes: string[];
  allowed_ips: string[];
  /** Revoked or past its expiry: refused like an unknown key. */
  dead: boolean;
  /** The key's last-used time is older than `LAST_SEEN_STEP_MS`: this request moves it. */
  stale: boolean;
  id: string;
  nickname: string;
  role: string;
  is_active: boolean;
  totp_on: boolean;
}

/** The 403 of an API key on a route whose scope it lacks (DESIGN §11.2). */
export const scopeMessage = (scope: string) => `This API key does not allow ${scope}`;

/** The 403 of an API key used from an address outside its `allowedIps` (DESIGN §11.2). */
export const KEY_ADDRESS_MESSAGE = 'This API key cannot be used from this address';

/** How coarsely a session's last-seen time: one write per session per 5 minutes at most. */
const LAST_SEEN_STEP_MS = 5 * 60 * 1000;

/** Most accounts read in one session check (one statement). */
const SESSION_CHECKS_PER_READ = 256;

interface AuthOptions {
  db: Db;
  jwtSecret: string;
  /** `required`: admin routes refuse a session that did not pass a second factor (DESIGN §11.1 `ADMIN_MFA`). */
  adminMfa: 'required' | 'optional';
  /**
   * Redeems a download link (DESIGN §11.6) for the route `path` with the request's query: the session it
   * was made in; throws 401 for a link that does not open this export. Absent: links are refused.
   */
  redeemLink?: (token: string, path: string, query: unknown) => Promise<{ userId: string; sessionId: string }>;
}

/** The 403 of an admin route to a session without a second factor under `ADMIN_MFA=required` (DESIGN §11.1). */
export const ADMIN_MFA_MESSAGE = 'Two-factor authentication is required for admins';

/**
 * The token of an `Authorization: Bearer <token>` header, or undefined. The scheme is matched without
 * regard to case (RFC 7235 §2.1: `bearer`, `BEARER` and `Bearer` are one scheme).
 */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header ? /^bearer[ ]+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/** True when a query string carries something named like an API key (`apiKey`, `api_key`, `x-api-key`…). */
export function hasApiKeyInQuery(query: unknown): boolean {
  if (!query || typeof query !== 'object') return false;
  return Object.keys(query).some((name) => /api[-_]?key/i.test(name));
}

export const authPlugin = fp<AuthOptions>(async (app: FastifyInstance, opts) => {
  const key = new TextEncoder().encode(opts.jwtSecret);

  app.decorate('signSession', async (user: SessionClaims) => {
    return (
      new SignJWT({ role: user.role, tv: user.tokenVersion, sid: user.sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        // A random id: two sign-ins in one second still get two different tokens.
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(Math.floor(user.expiresAt.getTime() / 1000))
        .sign(key)
    );
  });
  app.decorateRequest('auth', null);
  app.decorateRequest('authVia', null);
  app.decorateRequest('apiKey', null);
  // A token is immutable: once its signature checks out, only its expiry and the account (read below on
  // every request) can end it. So the signature check is cached, the expiry is checked every time.
  const verified = new LRUCache<string, VerifiedToken>(upTo(VERIFIED_TOKENS));
  // The account is read on every signed-in request, never kept: a bumped version or a deactivation
  // ends a session at once, on every server process. Requests that arrive while a read is under way go
  // together in the next one (group commit's batching, DESIGN §9, for a read): each is checked against
  // the account as it is after it arrived, and a busy server pays one round trip for many requests
  // rather than one each (the per-request cost every route pays).
  // The session's last-seen time moves in the same batch's wake, at most once per LAST_SEEN_STEP_MS.
  const sessionAccounts = new GroupCommit<string, SessionAccount | null>(async (_lane, sids) => {
    const rows = await queryNamed<SessionAccount & Record<string, unknown>>(
      opts.db,
      'auth_sessions',
      sql`SELECT s.id AS sid, s.ended_at IS NOT NULL AS ended, s.second_factor,
                 s.last_seen_at < now() - make_interval(secs => ${LAST_SEEN_STEP_MS / 1000}) AS stale,
                 u.id, u.nickname, u.role, u.is_active, u.token_version, ${TOTP_ON} AS totp_on
          FROM user_sessions s JOIN users u ON u.id = s.user_id
          WHERE s.id = ANY(${pgArray([...new Set(sids)])}::bpchar[])`,
    );
    const bySid = new Map(rows.map((r) => [r.sid, r]));
    const stale = rows.filter((r) => r.stale && !r.ended).map((r) => r.sid);
    if (stale.length > 0) {
      queryNamed(
        opts.db,
        'auth_touch_sessions',
        sql`UPDATE user_sessions SET last_seen_at = now() WHERE id = ANY(${pgArray(stale)}::bpchar[])`,
      ).catch((err: unknown) => app.log.warn({ err }, 'could not move last-seen times'));
    }
    return sids.map((sid) => ({ ok: true, value: bySid.get(sid) ?? null }));
  }, SESSION_CHECKS_PER_READ);

  // Keys are read like sessions: on every request, never kept, in shared batches; the last-used time moves
  // in the batch's wake at most once per LAST_SEEN_STEP_MS per key.
  const keyAccounts = new GroupCommit<string, KeyAccount | null>(async (_lane, hashes) => {
    const rows = await queryNamed<KeyAccount & Record<string, unknown>>(
      opts.db,
      'auth_api_keys',
      sql`SELECT k.id AS key_id, k.secret_hash AS hash, k.scopes, k.allowed_ips,
                 (k.revoked_at IS NOT NULL OR k.expires_at <= now()) IS TRUE AS dead,
                 (k.last_used_at IS NULL OR k.last_used_at < now() - make_interval(secs => ${LAST_SEEN_STEP_MS / 1000})) AS stale,
                 u.id, u.nickname, u.role, u.is_active, ${TOTP_ON} AS totp_on
          FROM api_keys k JOIN users u ON u.id = k.user_id
          WHERE k.secret_hash = ANY(${pgArray([...new Set(hashes)])}::text[])`,
    );
    const byHash = new Map(rows.map((r) => [r.hash, r]));
    const stale = rows.filter((r) => r.stale && !r.dead).map((r) => r.key_id);
    if (stale.length > 0) {
      queryNamed(
        opts.db,
        'auth_touch_api_keys',
        sql`UPDATE api_keys SET last_used_at = now() WHERE id = ANY(${pgArray(stale)}::bpchar[])`,
      ).catch((err: unknown) => app.log.warn({ err }, "could not move API keys' last-used times"));
    }
    return hashes.map((hash) => ({ ok: true, value: byHash.get(hash) ?? null }));
  }, SESSION_CHECKS_PER_READ);

  /** Verifies a token's signature and expiry (cached). Throws 401 `Token expired` / `Not authorized`. */
  async function verifyToken(token: string): Promise<VerifiedToken> {
    const known = verified.get(token);
    if (known) {
      if (Date.now() >= known.expiresAt) throw new AppError('UNAUTHORIZED', MESSAGES.tokenExpired);
      return known;
    }
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      // A token without a session id (signed before sessions were kept) is no longer honoured.
      if (typeof payload.exp !== 'number' || typeof payload.sid !== 'string') {
        throw new AppError('UNAUTHORIZED', MESSAGES.notAuthorized);
      }
      const result = { sub: String(payload.sub), tv: payload.tv, sid: payload.sid, expiresAt: payload.exp * 1000 };
      verified.set(token, result);
      return result;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new AppError('UNAUTHORIZED', MESSAGES.tokenExpired);
      throw new AppError('UNAUTHORIZED', MESSAGES.notAuthorized);
    }
  }

  /**
   * The member of an `x-api-key` header, looked up by the key's SHA-256 in batches like the session check;
   * the key's scopes and addresses are checked per route in the hook below. Throws 401 for an unknown,
   * revoked or expired key and for a deactivated account.
   */
  async function authenticateApiKey(request: FastifyRequest, key: string): Promise<AuthUser> {
    const row = await keyAccounts.submit('key', hashApiKey(key));
    if (!row || row.dead || !row.is_active) throw new AppError('UNAUTHORIZED', MESSAGES.notAuthorized);
    request.authVia = 'apiKey';
    request.apiKey = { scopes: row.scopes, allowedIps: row.allowed_ips };
    return { id: row.id, nickname: row.nickname, role: row.role, totpOn: row.totp_on };
  }

  /**
   * The member of a download link (`?token=` on a `config.downloadLink` route, no credentials in the
   * headers): the link is consumed, then its session is checked as a bearer token's is.
   */
  async function authenticateLink(request: FastifyRequest, link: string): Promise<AuthUser> {
    if (!opts.redeemLink) throw new AppError('UNAUTHORIZED', MESSAGES.notAuthorized);
    const { userId, sessionId } = await opts.redeemLink(link, request.routeOptions.url ?? '', request.query);
    const row = await sessionAccounts.submit('session', sessionId);
    if (!row || row.id !== userId || row.ended || !row.is_active) {
      throw new AppError('UNAUTHORIZED', MESSAGES.notAuthorized);
    }
    request.authVia = 'session';
    return {
      id: row.id,
      nickname: row.nickname,
      role: row.role,
      sessionId,
      secondFactor: row.second_factor,
      totpOn: row.totp_on,
    };
  }

  async function authenticate(request: FastifyRequest): Promise<AuthUser> {
    const token = bearerToken(request.headers.authorization);
    const apiKey = request.headers['x-api-key'];
    if (!token && typeof apiKey === 'string' && apiKey !== '') return authenticateApiKey(request, apiKey);
    const link = (request.query as { token?: unknown } | undefined)?.token;
    if (!token && request.routeOptions.config?.downloadLink && typeof link === 'string' && link !== '') {
      return authenticateLink(request, link);
    }
    if (!token) throw new AppError('UNAUTHORIZED', MESSAGES.notAuthorized);
    const { sub, tv, sid } = await verifyToken(token);
    const row = await sessionAccounts.submit('session', sid);
    // A deactivated account's sessions end like a logged-out one's: 401, so the web signs out.
    if (!row || row.id !== sub || row.ended || row.token_version !== tv || !row.is_active) {
      throw new AppError('UNAUTHORIZED', MESSAGES.notAuthorized);
    }
    request.authVia = 'session';
    return {
      id: row.id,
      nickname: row.nickname,
      role: row.role,
      sessionId: sid,
      secondFactor: row.second_factor,
      totpOn: row.totp_on,
    };
  }

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    const access: Access | undefined = config?.access;
    if (!access) return;
    if (hasApiKeyInQuery(request.query)) throw new AppError('UNAUTHORIZED', MESSAGES.notAuthorized);
    if (access === 'public') {
      if (request.headers.authorization || request.headers['x-api-key']) {
        request.auth = await authenticate(request).catch(() => null);
      }
      return;
    }
    const user = await authenticate(request);
    if (access === 'admin' && request.authVia === 'apiKey') {
      throw new AppError('FORBIDDEN', 'API keys cannot be used on admin routes');
    }
    if (config.sessionOnly && request.authVia === 'apiKey') throw new AppError('FORBIDDEN', SESSION_ONLY_MESSAGE);
    if (request.apiKey) {
      if (!ipAllowed(request.ip, request.apiKey.allowedIps)) throw new AppError('FORBIDDEN', KEY_ADDRESS_MESSAGE);
      const scope = config.scope;
      if (!scope || !request.apiKey.scopes.includes(scope)) {
        throw new AppError('FORBIDDEN', scopeMessage(scope ?? 'this call'));
      }
    }
    if (access === 'admin' && user.role !== 'admin') throw new AppError('FORBIDDEN', 'Forbidden');
    if (access === 'admin' && opts.adminMfa === 'required' && user.secondFactor !== true) {
      throw new AppError('FORBIDDEN', ADMIN_MFA_MESSAGE);
    }
    if (access === 'creator' && user.role !== 'creator' && user.role !== 'admin') {
      throw new AppError('FORBIDDEN', 'Forbidden');
    }
    request.auth = user;
  });
});
