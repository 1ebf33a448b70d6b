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
} as const;
