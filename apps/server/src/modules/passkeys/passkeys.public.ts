/**
 * What other modules may use of the passkeys: the routes, which the users module mounts under /api/user
 * with its own session start (a passkey sign-in opens a session as every sign-in does) and security mail,
 * and the removal of every passkey of a member by the admin's `resetUserMfa`.
 */
export { deleteAllPasskeys } from './passkeys.queries.ts';
export { passkeysRoutes } from './passkeys.routes.ts';
