/**
 * What other modules may use of the second factors (DESIGN §11.1): whether an account has TOTP on (sign-in
 * asks for a code then), the sign-in challenge the users module starts and redeems, and the step-up that
 * withdrawals, API keys, withdrawal addresses and e-mail or password changes ask for, and the admin's reset
 * (`resetTotp`). The security hold (DESIGN §11.2): the users module sets it (`holdWithdrawals`) in the
 * transaction of a password reset or an e-mail change, and the settlements module reads it
 * (`withdrawalHolds`) to say when withdrawals resume. `SecurityNotices`: how the users module writes the
 * in-app notice of a second factor's change in that change's transaction (DESIGN §11.3).
 */
export {
  hasTotp,
  type MfaDeps,
  requireStepUp,
  resetTotp,
  type SecurityChange,
  type SecurityNotices,
} from './mfa.service.ts';
export { holdWithdrawals, withdrawalHolds } from './security-holds.service.ts';
export { redeemSignInChallenge, startSignInChallenge } from './signin.service.ts';
