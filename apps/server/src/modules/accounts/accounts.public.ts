/**
 * What other modules may use of the accounts: looking a member up by id or nickname, a member as the wire
 * shows them (with `User.mfa`'s column, `userMfaColumn`, for a module's own read), new accounts (the seed and sign-up), the access log a sign-in writes, and the system
 * accounts (the chip sale's nickname, which sign-up refuses). Everything else of accounts is its own.
 */
export {
  type BalanceText,
  findUserById,
  findUserByNickname,
  insertAccessLog,
  insertUser,
  loadUserDto,
  toUserDto,
  type UserRow,
  userMfaColumn,
} from './accounts.queries.ts';
export { ensureSystemAccount, SALE_NICKNAME } from './system-accounts.service.ts';
