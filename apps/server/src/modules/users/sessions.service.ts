/**
 * Sign-in sessions (DESIGN §11.1 Sessions): each sign-in starts one (its id in the token), a member lists
 * theirs and ends any one or all others, logout ends the current one, an admin sees and ends a member's.
 * An ended session's token is refused at once on every server process (auth plugin) and its sockets close.
 */
import { ADMIN_CATEGORY, AppError, type SessionsResponse } from '@starlight/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import { withLiveChanges } from '../../http/money-moving.ts';
import type { SignInClient } from '../../http/sign-in-client.ts';
import { type PeriodicJob, startPeriodic, withJobLock } from '../../lib/periodic.ts';
import { findUserByNickname } from '../accounts/accounts.public.ts';
import { resetTotp } from '../mfa/mfa.public.ts';
import { notify } from '../notifications/notifications.public.ts';
import { insertAdminLog } from '../oversight/oversight.public.ts';
import { deleteAllPasskeys } from '../passkeys/passkeys.public.ts';
import { deviceName } from './device-name.ts';
import type { SecurityEvent } from './security-mails.ts';
import { securityNoticeOf } from './security-notices.ts';
import { endSessions, insertSession, liveSessions, pruneSessions } from './sessions.queries.ts';
import type { UsersDeps } from './users.service.ts';

/** How long a session lasts: 24 hours (SPEC §9). */
const SESSION_MS = 24 * 60 * 60 * 1000;

/**
 * Starts a session for an account that just proved who it is, and signs its 24-hour token (SPEC §9).
 * `secondFactor`: the sign-in passed one (DESIGN §11.1). `newSignIn`: the sign-in comes from a device and
 * address the account has not used before (when, where, what device): its `security` notification is
 * written with the session, in one transaction (DESIGN §11.3).
 */
export async function startSession(
  deps: Pick<UsersDeps, 'db' | 'app'>,
  row: { id: string; role: string; tokenVersion: number },
  client: SignInClient,
  secondFactor = false,
  newSignIn: SecurityEvent | null = null,
): Promise<string> {
  const expiresAt = new Date(Date.now() + SESSION_MS);
  const session = {
    userId: row.id,
    device: deviceName(client.userAgent),
    address: client.address,
    secondFactor,
    expiresAt,
  };
  // A sign-in from a device and address not seen before: its security notification commits with the session.
  const sessionId = newSignIn
    ? await withLiveChanges(deps.app.live.changes, (changes) =>
        inTransaction(deps.db, async (tx) => {
          const id = await insertSession(tx, session);
          await notify(tx, [securityNoticeOf(row.id, 'new-sign-in', newSignIn)], changes);
          return id;
        }),
      )
    : await insertSession(deps.db, session);
  return deps.app.signSession({ id: row.id, role: row.role, tokenVersion: row.tokenVersion, sessionId, expiresAt });
}

/** A member's live sessions as the wire shows them; `currentId` is marked `current`. */
async function sessionsOf(
  db: Db,
  userId: string,
  currentId: string | undefined,
): Promise<SessionsResponse['sessions']> {
  const rows = await liveSessions(db, userId);
  return rows.map((r) => ({
    _id: r.id,
    current: r.id === currentId,
    device: r.device,
    address: r.address,
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    secondFactor: r.secondFactor,
  }));
}

/** `GET sessions`: the caller's live sessions, newest first, their own marked `current`. */
export async function listSessions(deps: UsersDeps, auth: AuthUser): Promise<SessionsResponse> {
  const sessions = await sessionsOf(deps.db, auth.id, auth.sessionId);
  return { sessions, message: `${sessions.length} active ${sessions.length === 1 ? 'session' : 'sessions'}` };
}

/** Ends sessions of `userId` (see `endSessions`) and closes their sockets on every process. */
async function end(deps: UsersDeps, userId: string, which: Parameters<typeof endSessions>[2]): Promise<string[]> {
  const ended = await endSessions(deps.db, userId, which);
  if (ended.length > 0) await deps.app.live.sessions.endSessions(userId, ended);
  return ended;
}

/** `POST sessions/end {_id}`: ends one of the caller's sessions. 404 `Session not found` for any other id. */
export async function endSession(deps: UsersDeps, auth: AuthUser, id: string): Promise<{ message: string }> {
  const ended = await end(deps, auth.id, { only: id });
  if (ended.length === 0) throw new AppError('NOT_FOUND', 'Session not found');
  return { message: id === auth.sessionId ? 'You have been signed out' : 'The session has been ended' };
}

/** `POST sessions/endOthers {}`: ends every session of the caller but the current one. */
export async function endOtherSessions(deps: UsersDeps, auth: AuthUser): Promise<{ message: string }> {
  const ended = auth.sessionId ? await end(deps, auth.id, { except: auth.sessionId }) : [];
  return {
    message:
      ended.length === 0
        ? 'No other sessions'
        : `${ended.length} other ${ended.length === 1 ? 'session' : 'sessions'} ended`,
  };
}

/** `logout` (DESIGN §11.1): ends the caller's current session only. */
export async function logoutSession(deps: UsersDeps, auth: AuthUser): Promise<void> {
  if (auth.sessionId) await end(deps, auth.id, { only: auth.sessionId });
}

/** The account of `nickname` for an admin's session call; 404 `User not found`. */
async function targetOf(db: DbOrTx, nickname: string) {
  const target = await findUserByNickname(db, nickname);
  if (!target) throw new AppError('NOT_FOUND', 'User not found');
  return target;
}

/** Admin `getUserSessions {nickname}`: the member's live sessions (none is `current`). */
export async function getUserSessions(deps: UsersDeps, nickname: string): Promise<SessionsResponse> {
  const target = await targetOf(deps.db, nickname);
  const sessions = await sessionsOf(deps.db, target.id, undefined);
  return {
    sessions,
    message: `${target.nickname} has ${sessions.length} active ${sessions.length === 1 ? 'session' : 'sessions'}`,
  };
}

/** Admin `endUserSessions {nickname}`: ends every session of the member, written to the admin log (40). */
export async function endUserSessions(
  deps: UsersDeps,
  admin: AuthUser,
  nickname: string,
  address: string,
): Promise<{ message: string }> {
  const { userId, name, ended } = await inTransaction(deps.db, async (tx) => {
    const target = await targetOf(tx, nickname);
    const ids = await endSessions(tx, target.id, 'all');
    await insertAdminLog(tx, {
      adminId: admin.id,
      affectedUserId: target.id,
      address,
      category: ADMIN_CATEGORY.EndUserSessions,
      action: `End ${target.nickname}'s sessions: ${ids.length} ended`,
    });
    return { userId: target.id, name: target.nickname, ended: ids };
  });
  if (ended.length > 0) await deps.app.live.sessions.endSessions(userId, ended);
  return { message: `${name}'s sessions have been ended (${ended.length})` };
}

/**
 * Admin `resetUserMfa {nickname}` (DESIGN §11.1): turns a member's second factors off (the authenticator app
 * with its recovery codes, and every passkey), for a member who lost them, written to the admin log
 * (category 41) in the same transaction. Their sessions go on; their next sign-in needs the password only.
 * Two-factor being off, their withdrawals pause for `SECURITY_HOLD_HOURS` (DESIGN §11.2).
 * 404 for an unknown nickname.
 */
export async function resetUserMfa(
  deps: UsersDeps,
  admin: AuthUser,
  nickname: string,
  address: string,
): Promise<{ message: string }> {
  return inTransaction(deps.db, async (tx) => {
    const target = await targetOf(tx, nickname);
    const totp = await resetTotp(deps.mfa, tx, target.id);
    const passkeys = await deleteAllPasskeys(tx, target.id);
    const what = `${totp ? 'authenticator app' : 'no authenticator app'}, ${passkeys} passkey${passkeys === 1 ? '' : 's'}`;
    await insertAdminLog(tx, {
      adminId: admin.id,
      affectedUserId: target.id,
      address,
      category: ADMIN_CATEGORY.ResetUserTwoFactor,
      action: `Reset ${target.nickname}'s two-factor: ${what} removed`,
    });
    return { message: `${target.nickname}'s two-factor authentication has been reset (${what} removed)` };
  });
}

/** How long an expired session stays listed for an admin's look back before it is pruned: 30 days. */
const KEEP_EXPIRED_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Starts the job that deletes sessions expired more than 30 days ago, hourly, on one replica at a time
 * (`withJobLock`); stop it on close.
 */
export function startSessionPruning(db: Db, log: FastifyBaseLogger, everyMs = 60 * 60 * 1000): PeriodicJob {
  return startPeriodic({
    name: 'prune-sessions',
    everyMs,
    log,
    tick: async () => {
      await withJobLock(db, 'prune-sessions', (tx) => pruneSessions(tx, new Date(Date.now() - KEEP_EXPIRED_MS)));
    },
  });
}
