/**
 * What other modules may use of the accounts: looking a member up by nickname, a member as the wire shows
 * them, new accounts (the seed and the chip sale), and the access log. Everything else of users is its own.
 */
export {
  type BalanceText,
  findUserByNickname,
  insertAccessLog,
  insertUser,
  loadUserDto,
  toUserDto,
} from './users.queries.ts';
