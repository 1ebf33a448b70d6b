/** Request and response schemas of the second factors (DESIGN §11.1): TOTP, recovery codes, sign-in, step-up. */
import { z } from 'zod';
import { objectId } from './common.ts';

/**
 * A second-factor code as typed: the authenticator app's six digits or a recovery code (`xxxx-xxxx-xxxx`);
 * spaces and dashes do not matter. Which one it is, the server decides.
 */
export const mfaCode = z.string().trim().min(6).max(32);

/** `User.mfa` (DESIGN §11.1): whether TOTP is on, and how many passkeys the account has. */
export const userMfa = z.object({ totp: z.boolean(), passkeys: z.number().int() });
export type UserMfa = z.infer<typeof userMfa>;

/** `POST mfa/totp/setup {}`: a new, pending secret (409 when TOTP is on). */
export const totpSetupRequest = z.strictObject({});
export const totpSetupResponse = z.object({
  /** Base32, for typing into the app by hand. */
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The `otpauthUrl` as a QR code, a `data:image/png;base64,` URL. */
  qrCode: z.string(),
  message: z.string(),
});
export type TotpSetupResponse = z.infer<typeof totpSetupResponse>;

/** `mfa/totp/enable`, `mfa/totp/disable` and `mfa/recoveryCodes`: `{code}`. */
export const mfaCodeRequest = z.strictObject({ code: mfaCode });
export type MfaCodeRequest = z.input<typeof mfaCodeRequest>;

/** `mfa/totp/enable` and `mfa/recoveryCodes`: ten recovery codes, shown this once. */
export const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()), message: z.string() });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;

/** A sign-in whose password (or wallet signature) was right, waiting for the second factor. */
export const mfaRequiredResponse = z.object({
  mfaRequired: z.literal(true),
  /** Single use, 5 minutes, dead after 5 wrong codes: `POST login/mfa` takes it. */
  mfaToken: z.string(),
  message: z.string(),
});
export type MfaRequiredResponse = z.infer<typeof mfaRequiredResponse>;

/** `POST login/mfa {mfaToken, code, cAppAuthRequest?}` -> as `login` (DESIGN §11.1). */
export const loginMfaRequest = z.strictObject({
  mfaToken: z.string().min(16).max(128),
  code: mfaCode,
  cAppAuthRequest: objectId.optional(),
});
export type LoginMfaRequest = z.input<typeof loginMfaRequest>;

/** `mfaCode` of a step-up (DESIGN §11.1): required when the account has a second factor. */
export const stepUpCode = mfaCode.optional();

/** `POST newApiKey {mfaCode?}`: `newApiKey` with a step-up code in its body (the GET has none). */
export const newApiKeyRequest = z.strictObject({ mfaCode: stepUpCode });
export type NewApiKeyRequest = z.input<typeof newApiKeyRequest>;
