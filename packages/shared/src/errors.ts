/** One error model (STYLE habit 3): services throw AppError; the server maps codes to statuses (DESIGN §3). */

export const ERROR_STATUS = {
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  INTERNAL: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** A failure with a user-facing `message` and a code that picks the HTTP status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
    this.name = 'AppError';
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** Messages SPEC fixes (SPEC §5, §8). */
export const MESSAGES = {
  notAuthorized: 'Not authorized',
  tokenExpired: 'Token expired',
  incorrectPassword: 'Incorrect password',
  weakPassword: 'Password not strong enough',
  loggedOut: 'You have been logged out',
  credentialsExpired: 'Your credentials have expired, please login again',
  accountUpdated: 'Your account has been updated',
  /** A verify or reset link that is unknown, used or expired (DESIGN §8). */
  invalidLink: 'This link is invalid or has expired',
  /** A wrong, reused or malformed second-factor code (DESIGN §11.1). */
  invalidCode: 'Invalid code',
  /** A step-up without `mfaCode` on an account with a second factor (DESIGN §11.1). */
  codeRequired: 'Two-factor code required',
  /** `login/mfa` with an unknown, used, expired or spent `mfaToken` (401): the sign-in starts again. */
  mfaTokenInvalid: 'This sign-in has expired, please sign in again',
  /** Too many second-factor codes tried on one account (429). */
  tooManyCodes: 'Too many codes tried, please wait a few minutes and try again',
  /** WebAuthn refuses IP-address origins, so passkeys need `PUBLIC_URL` on a domain name (DESIGN §11.1). */
  passkeysNeedDomain: 'Passkeys need the site to be served from a domain name, not an IP address',
  /** A passkey challenge that is unknown, used, expired or for another purpose or account (DESIGN §11.1). */
  passkeyChallengeInvalid: 'This passkey request has expired, please try again',
  /** A passkey answer the server could not verify (wrong challenge, origin or signature). */
  passkeyNotVerified: 'The passkey could not be verified',
  /** A passkey sign-in with a credential no account holds. */
  passkeyUnknown: 'This passkey is not registered here',
  passkeyAlreadyRegistered: 'This passkey is already registered',
  /** A transfer's or a gift's recipient nickname that names no active member (404; DESIGN §4, §11.5). */
  recipientNotFound: 'Recipient not found',
} as const;
