/**
 * Sign-in sessions (DESIGN §11.1 Sessions): each sign-in starts one (its id in the token), a member lists
 * theirs and ends any one or all others, logout ends the current one, an admin sees and ends a member's.
 * An ended session's token is refused at once on every server process (auth plugin) and its sockets close.
 */
import { ADMIN_CATEGORY, AppError, type SessionsResponse } from '@starlight/shared';
import Bowser from 'bowser';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Db, DbOrTx } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import { type PeriodicJob, startPeriodic, withJobLock } from '../../lib/periodic.ts';
import { findUserByNickname } from '../accounts/accounts.public.ts';
import { insertAdminLog } from '../oversight/oversight.public.ts';
import { endSessions, insertSession, liveSessions, pruneSessions } from './sessions.queries.ts';
import type { UsersDeps } from './users.service.ts';

/** Who is signing in: the client's address and its User-Agent header (empty when it sent none). */
export interface SignInClient {
  address: string;
  userAgent: string;
}

/** The `SignInClient` of a request. */
export function signInClient(req: FastifyRequest): SignInClient {
  const userAgent = req.headers['user-agent'];
  return { address: req.ip, userAgent: typeof userAgent === 'string' ? userAgent : '' };
}

/** Longest device name kept (a forged User-Agent can be long). */
const MAX_DEVICE = 120;

/**
 * A device's name from its User-Agent, as the Settings list shows it: "Chrome 131 on Linux", "Safari on
 * iOS", or "Unknown device". Parsed by Bowser (MIT).
 */
export function deviceName(userAgent: string): string {
  if (userAgent.trim() === '') return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? `${parsed.browser.name}${major ? ` ${major}` : ''}` : '';
  const os = parsed.os.name ?? '';
  const name = browser && os ? `${browser} on ${os}` : browser || os || 'Unknown device';
  return name.slice(0, MAX_DEVICE);
}

/**
 * Starts a session for an account that just proved who it is, and signs its 24-hour token (SPEC §9).
 * `secondFactor`: the sign-in passed one (DESIGN §11.1).
 */
export async function startSession(
  deps: Pick<UsersDeps, 'db' | 'app'>,
  row: { id: string; role: string; tokenVersion: number },
  client: SignInClient,
  secondFactor = false,
): Promise<string> {
  const expiresAt = new Date(Date.now() + 24 * 60 * 60 * 1000);
  const sessionId = await insertSession(deps.db, {
    userId: row.id,
    device: deviceName(client.userAgent),
    address: client.address,
    secondFactor,
    expiresAt,
  });
  const { token } = await deps.app.signSession({
    id: row.id,
    role: row.role,
    tokenVersion: row.tokenVersion,
    sessionId,
  });
  return token;
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
