/** Request and response schemas of the user routes (SPEC §7 User, DESIGN §3 wire shapes). */
import { z } from 'zod';
import { cappLoginResponse } from './capp.ts';
import { decimalString, email, nickname, objectId, strongPassword, walletAddress } from './common.ts';
import { mfaRequiredResponse, stepUpCode, userMfa } from './mfa.ts';
import { currentSession } from './sessions.ts';

export const balance = z.object({ currencyId: z.number().int(), amount: decimalString });

/** DESIGN §3 `User`: never a password hash, never an API key. */
export const user = z.object({
  _id: objectId,
  nickname: z.string(),
  email: z.string().nullable(),
  role: z.string(),
  primaryWallet: z.string().nullable(),
  isActive: z.boolean(),
  isWalletOnly: z.boolean(),
  isEmailVerified: z.boolean(),
  isAnonymous: z.boolean(),
  referrer: z.string().nullable(),
  fame: z.number(),
  balances: z.array(balance),
  /** DESIGN §11.1: the account's second factors. */
  mfa: userMfa,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof user>;

export const registerRequest = z.strictObject({
  nickname,
  email,
  password: strongPassword,
  referrer: nickname.optional(),
});
export type RegisterRequest = z.input<typeof registerRequest>;
/** `register` as the server receives it, parsed. */
export type RegisterInput = z.output<typeof registerRequest>;

export const loginRequest = z.strictObject({
  nickOrEmail: z.string().min(3).max(255),
  password: z.string().min(1).max(255),
  /** A creator app's consent request (DESIGN §7): the answer is then `{url, message}`, not a session. */
  cAppAuthRequest: objectId.optional(),
});
export type LoginRequest = z.input<typeof loginRequest>;
/** `login` as the server receives it, parsed. */
export type LoginInput = z.output<typeof loginRequest>;

export const authResponse = z.object({ user, token: z.string(), message: z.string() });
export type AuthResponse = z.infer<typeof authResponse>;
/**
 * `login`, `loginWallet` and `login/mfa`: a session, or with `cAppAuthRequest` the app's URL and code
 * (DESIGN §7); for an account with a second factor, first `{mfaRequired, mfaToken}` (DESIGN §11.1).
 */
export const loginResponse = z.union([authResponse, cappLoginResponse, mfaRequiredResponse]);
export type LoginResponse = z.infer<typeof loginResponse>;

/** `GET me`: the account, and (for a session token) the session's second factor (DESIGN §11.1). */
export const meResponse = z.object({ user, session: currentSession.optional(), message: z.string() });
export type MeResponse = z.infer<typeof meResponse>;

/**
 * `updateProfile` (DESIGN §8): any of nickname, e-mail, password and the Private flag. Changing the e-mail
 * or the password needs `currentPassword` (wallet-only accounts have none). With a new password,
 * `revokeApiKeys` (default true) says whether the account's API keys stop working too. Nothing else can
 * be set: an unknown field is refused (`"role" is not allowed`).
 */
export const updateProfileRequest = z.strictObject({
  nickname: nickname.optional(),
  email: email.optional(),
  password: strongPassword.optional(),
  isAnonymous: z.boolean().optional(),
  currentPassword: z.string().min(1).max(255).optional(),
  revokeApiKeys: z.boolean().optional(),
  /** Step-up (DESIGN §11.1): needed to change the e-mail or password when the account has a second factor. */
  mfaCode: stepUpCode,
});
export type UpdateProfileRequest = z.input<typeof updateProfileRequest>;
/** `updateProfile` as the server receives it, parsed. */
export type UpdateProfileInput = z.output<typeof updateProfileRequest>;
/** `token` is a fresh session when the change ended the others (a password change). */
export const updateProfileResponse = z.object({ user, token: z.string().optional(), message: z.string() });
export type UpdateProfileResponse = z.infer<typeof updateProfileResponse>;

/** SPEC §5 verify / reset token: text of 150 to 255 characters. */
export const mailToken = z.string().min(150).max(255);

/** `verifyEmail {token}` (DESIGN §8). */
export const verifyEmailRequest = z.strictObject({ token: mailToken });
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequest>;

/** `loginLink {token}`: signs in once with a mailed sign-in link -> `{user, token, message}` (DESIGN §8). */
export const loginLinkRequest = z.strictObject({ token: mailToken });
export type LoginLinkRequest = z.infer<typeof loginLinkRequest>;
/** `loginLink`: a session, or for an account with a second factor the code step first (DESIGN §11.1). */
export const loginLinkResponse = z.union([authResponse, mfaRequiredResponse]);

/** `forgotPassword {email}`: the same answer whether or not the address has an account (DESIGN §8). */
export const forgotPasswordRequest = z.strictObject({ email });
export type ForgotPasswordRequest = z.input<typeof forgotPasswordRequest>;

/** `resetPassword {token, password}`: sets the password and ends every session (DESIGN §8). */
export const resetPasswordRequest = z.strictObject({ token: mailToken, password: strongPassword });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

/** SPEC §7 `sendVerificationEmail` sends "the e-mail" as its body; the account's own address is used. */
export const sendVerificationEmailRequest = z.strictObject({ email: email.optional() });
export type SendVerificationEmailRequest = z.input<typeof sendVerificationEmailRequest>;

/** A wallet signature: `0x` and hex (65 bytes for an EOA; longer for smart-contract wallets). */
export const walletSignature = z
  .string()
  .min(4)
  .max(2048)
  .regex(/^0x[0-9a-fA-F]+$/);

/** `getNoncedMessage {walletAddress}` -> `{messageToSign, message}` (DESIGN §8, EIP-4361). */
export const noncedMessageRequest = z.strictObject({ walletAddress });
export type NoncedMessageRequest = z.input<typeof noncedMessageRequest>;
export const noncedMessageResponse = z.object({ messageToSign: z.string(), message: z.string() });
export type NoncedMessageResponse = z.infer<typeof noncedMessageResponse>;

/** `registerWallet {walletAddress, signature, referrer?}` -> `{user, token, message}` (DESIGN §8). */
export const registerWalletRequest = z.strictObject({
  walletAddress,
  signature: walletSignature,
  referrer: nickname.optional(),
});
export type RegisterWalletRequest = z.input<typeof registerWalletRequest>;

/** `loginWallet {walletAddress, signature, cAppAuthRequest?}` -> `{user, token, message}` (DESIGN §8). */
export const loginWalletRequest = z.strictObject({
  walletAddress,
  signature: walletSignature,
  cAppAuthRequest: objectId.optional(),
});
export type LoginWalletRequest = z.input<typeof loginWalletRequest>;

/** `getApiKey` / `newApiKey` -> `{apiKey}`: null when the member has none (DESIGN §8). */
export const apiKeyResponse = z.object({ apiKey: z.string().nullable(), message: z.string() });
export type ApiKeyResponse = z.infer<typeof apiKeyResponse>;
