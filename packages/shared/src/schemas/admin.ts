/**
 * Admin schemas of users and the audit trail (SPEC §2 Admin Console, §3, §5; DESIGN §8): the user list
 * and stats, administrateUser, the access and admin logs.
 */
import { z } from 'zod';
import { INT32_MAX, isoDate, nickname, paging, role, totalCapped } from './common.ts';
import { user } from './user.ts';

/** A boolean filter: `true`/`false`, as JSON or as the text a select sends. */
const flag = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/** `getUsers` (DESIGN §8): every SPEC filter; `nickname` and `email` match a part, in any case. */
export const getUsersRequest = z.strictObject({
  paging,
  nickname: z.string().min(1).max(32).optional(),
  email: z.string().min(1).max(255).optional(),
  role: role.optional(),
  isActive: flag.optional(),
  isWalletOnly: flag.optional(),
  isEmailVerified: flag.optional(),
  isAnonymous: flag.optional(),
  createdAfter: isoDate.optional(),
  createdBefore: isoDate.optional(),
});
export type GetUsersRequest = z.input<typeof getUsersRequest>;
export type GetUsersQuery = z.output<typeof getUsersRequest>;

/** A row of the admin user list: the account without its balances and second factors, and whether it holds any currency. */
export const adminUserRow = user.omit({ balances: true, mfa: true }).extend({ hasCurrency: z.boolean() });
export type AdminUserRow = z.infer<typeof adminUserRow>;
export const getUsersResponse = z.object({
  users: z.array(adminUserRow),
  total: z.number().int(),
  totalCapped,
  message: z.string(),
});
export type GetUsersResponse = z.infer<typeof getUsersResponse>;

/** `getUserStats {startDate?, endDate?}`: accounts created in the range (all when no range). */
export const getUserStatsRequest = z.strictObject({ startDate: isoDate.optional(), endDate: isoDate.optional() });
export type GetUserStatsRequest = z.infer<typeof getUserStatsRequest>;
export const userStats = z.object({
  total: z.number().int(),
  verifiedEmailAccounts: z.number().int(),
  walletUsers: z.number().int(),
  anonymousUsers: z.number().int(),
  disabledAccounts: z.number().int(),
  adminUsers: z.number().int(),
  haveCurrency: z.number().int(),
});
export type UserStats = z.infer<typeof userStats>;
export const getUserStatsResponse = z.object({ stats: userStats, message: z.string() });
export type GetUserStatsResponse = z.infer<typeof getUserStatsResponse>;

/** `administrateUser {nickname, role?, active?}` (SPEC §5: nickname required; role one of SPEC's roles). */
export const administrateUserRequest = z.strictObject({
  nickname,
  role: z.enum(['admin', 'user', 'creator']).optional(),
  active: flag.optional(),
});
export type AdministrateUserRequest = z.input<typeof administrateUserRequest>;
export type AdministrateUserInput = z.output<typeof administrateUserRequest>;
export const administrateUserResponse = z.object({ user, message: z.string() });

/** `getAccessLogs` (DESIGN §8): `user` a nickname, `category` the login type (1-4, SPEC §3). */
export const getAccessLogsRequest = z.strictObject({
  paging,
  user: nickname.optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  category: z.number().int().min(1).max(4).optional(),
  address: z.string().min(1).max(64).optional(),
});
export type GetAccessLogsRequest = z.infer<typeof getAccessLogsRequest>;
export const accessLog = z.object({
  _id: z.string(),
  date: z.string(),
  user: z.object({ nickname: z.string() }),
  address: z.string(),
  loginType: z.number().int(),
});
export type AccessLog = z.infer<typeof accessLog>;
export const getAccessLogsResponse = z.object({
  logs: z.array(accessLog),
  total: z.number().int(),
  totalCapped,
  message: z.string(),
});
export type GetAccessLogsResponse = z.infer<typeof getAccessLogsResponse>;

/** `getAdminLogs` (DESIGN §8): `adminUser` / `affectedUser` nicknames, `category` SPEC §3's admin actions. */
export const getAdminLogsRequest = z.strictObject({
  paging,
  adminUser: nickname.optional(),
  affectedUser: nickname.optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  category: z.number().int().min(1).max(INT32_MAX).optional(),
  address: z.string().min(1).max(64).optional(),
});
export type GetAdminLogsRequest = z.infer<typeof getAdminLogsRequest>;
export const adminLog = z.object({
  _id: z.string(),
  date: z.string(),
  adminUser: z.object({ nickname: z.string() }),
  affectedUser: z.object({ nickname: z.string() }).nullable(),
  address: z.string(),
  category: z.number().int(),
  action: z.string(),
});
export type AdminLog = z.infer<typeof adminLog>;
export const getAdminLogsResponse = z.object({
  logs: z.array(adminLog),
  total: z.number().int(),
  totalCapped,
  message: z.string(),
});
export type GetAdminLogsResponse = z.infer<typeof getAdminLogsResponse>;
