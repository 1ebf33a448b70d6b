/** Sign-in sessions a member sees and ends (DESIGN §11.1 Sessions). */
import { z } from 'zod';
import { nickname, objectId } from './common.ts';

/** One live session: `current` marks the caller's own; `secondFactor` that its sign-in passed one. */
export const sessionInfo = z.object({
  _id: objectId,
  current: z.boolean(),
  device: z.string(),
  address: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  secondFactor: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfo>;

/** `GET sessions` and the admin's `getUserSessions`. */
export const sessionsResponse = z.object({ sessions: z.array(sessionInfo), message: z.string() });
export type SessionsResponse = z.infer<typeof sessionsResponse>;

/** `POST sessions/end {_id}`. */
export const endSessionRequest = z.strictObject({ _id: objectId });

/** `POST sessions/endOthers {}`. */
export const endOtherSessionsRequest = z.strictObject({});

/** The admin's `getUserSessions`, `endUserSessions` (and `resetUserMfa`): `{nickname}`. */
export const userSessionsRequest = z.strictObject({ nickname });
export type UserSessionsRequest = z.infer<typeof userSessionsRequest>;

/** The admin's `resetUserMfa {nickname}` (DESIGN §11.1): turns a member's second factors off. */
export const resetUserMfaRequest = userSessionsRequest;
export type ResetUserMfaRequest = z.infer<typeof resetUserMfaRequest>;

/**
 * The caller's session as `GET me` tells it (DESIGN §11.1): whether it passed a second factor, and whether
 * the admin console needs one (an admin under `ADMIN_MFA=required`). Absent for an API key.
 */
export const currentSession = z.object({ secondFactor: z.boolean(), adminMfaRequired: z.boolean() });
export type CurrentSession = z.infer<typeof currentSession>;
