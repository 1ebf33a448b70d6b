/**
 * The admin side of accounts (SPEC §2 Admin Console User Logs and User Control; DESIGN §8): the user
 * list and administrateUser (role and active state, effective at once). The user stats are the reports
 * module's (reports/user-stats.service.ts).
 */
import {
  ADMIN_CATEGORY,
  type AdministrateUserInput,
  AppError,
  type GetUsersQuery,
  type GetUsersResponse,
  type User,
} from '@starlight/shared';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import { findUserByNickname, loadUserDto, toUserDto } from '../accounts/accounts.public.ts';
import { insertAdminLog } from '../oversight/oversight.public.ts';
import { findUsers, lockActiveAdmins } from './admin.queries.ts';
import { bumpTokenVersion, updateUser } from './users.queries.ts';
import type { UsersDeps } from './users.service.ts';

/**
 * `getUsers`: a page of accounts, each with `hasCurrency` (DESIGN §8), and `total` counted up to
 * `COUNT_CAP` rows past the page with `totalCapped` when more match (an extension).
 */
export async function getUsers(deps: UsersDeps, query: GetUsersQuery): Promise<GetUsersResponse> {
  const { users, total, totalCapped } = await findUsers(deps.readDb, query);
  return {
    users: users.map(({ hasCurrency, referrerNickname, ...row }) => {
      // The list shows neither balances nor second factors (`adminUserRow`): placeholders, dropped here.
      const {
        balances: _none,
        mfa: _unread,
        ...dto
      } = toUserDto(row, [], referrerNickname, { totp: false, passkeys: 0 });
      return { ...dto, hasCurrency };
    }),
    total,
    totalCapped,
    message: total === 0 ? 'No Users' : 'OK',
  };
}

/**
 * `administrateUser {nickname, role?, active?}` (SPEC §2 User Control, DESIGN §8): sets the account's role
 * and active state. A change of either ends the account's sessions at once (the token version moves on,
 * its sockets close), so a deactivated member is signed out and a demoted admin loses admin routes on
 * their next request. Writes an admin log row (category 1) with the admin's IP. Throws 404 for an unknown
 * nickname, 400 when nothing is asked, 409 when it would leave no active admin.
 */
export async function administrateUser(
  deps: UsersDeps,
  admin: AuthUser,
  input: AdministrateUserInput,
  address: string,
): Promise<{ user: User; message: string }> {
  if (input.role === undefined && input.active === undefined) {
    throw new AppError('VALIDATION', '"role" is required');
  }
  const result = await inTransaction(deps.db, async (tx) => {
    const target = await findUserByNickname(tx, input.nickname);
    if (!target) throw new AppError('NOT_FOUND', 'User not found');
    const role = input.role ?? target.role;
    const active = input.active ?? target.isActive;
    const changes: string[] = [];
    if (role !== target.role) changes.push(`role ${target.role} -> ${role}`);
    if (active !== target.isActive) changes.push(`active ${target.isActive} -> ${active}`);
    if (changes.length === 0) return { id: target.id, tokenVersion: null };
    if (target.role === 'admin' && target.isActive && (role !== 'admin' || !active)) {
      const admins = await lockActiveAdmins(tx);
      if (admins.length <= 1 && admins.includes(target.id)) {
        throw new AppError('CONFLICT', 'The last active admin cannot be demoted or deactivated');
      }
    }
    await updateUser(tx, target.id, { role, isActive: active });
    const tokenVersion = await bumpTokenVersion(tx, target.id);
    await insertAdminLog(tx, {
      adminId: admin.id,
      affectedUserId: target.id,
      address,
      category: ADMIN_CATEGORY.AdministrateUser,
      action: `Administrate ${target.nickname}: ${changes.join(', ')}`,
    });
    return { id: target.id, tokenVersion };
  });
  if (result.tokenVersion !== null) await deps.app.live.sessions.end(result.id, result.tokenVersion);
  const user = await loadUserDto(deps.db, result.id);
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  return { user, message: result.tokenVersion === null ? 'Nothing changed' : `${user.nickname} has been updated` };
}
