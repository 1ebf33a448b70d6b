/** A member's data rights (DESIGN §11.6): the account's own data as JSON, and deleting the account. */
import { z } from 'zod';
import { nickname } from './common.ts';
import { stepUpCode } from './mfa.ts';

/**
 * `POST /api/user/deleteAccount {confirmNickname, password?, mfaCode?}`: the member's nickname typed to
 * confirm, the password of an account that has one, and a current code when a second factor is on.
 */
export const deleteAccountRequest = z.strictObject({
  confirmNickname: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(255).optional(),
  mfaCode: stepUpCode,
});
export type DeleteAccountRequest = z.input<typeof deleteAccountRequest>;

/** The admin's `POST /api/user/deleteUserAccount {nickname}`: the same deletion from User Control. */
export const deleteUserAccountRequest = z.strictObject({ nickname });
export type DeleteUserAccountRequest = z.infer<typeof deleteUserAccountRequest>;
