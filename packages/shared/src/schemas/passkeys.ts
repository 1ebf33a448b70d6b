/**
 * Passkeys (DESIGN §11.1): WebAuthn credentials a member adds in Settings and signs in with. The
 * `options` the server makes and the `response` the browser answers are WebAuthn's own JSON shapes
 * (made and read by `@simplewebauthn/server` and `@simplewebauthn/browser`); the schemas here check their
 * envelope and pass their content through, which the library verifies.
 */
import { z } from 'zod';
import { cappLoginResponse } from './capp.ts';
import { objectId } from './common.ts';
import { authResponse } from './user.ts';

/** A passkey as Settings lists it; `credentialId` is the WebAuthn credential id (base64url), public by nature. */
export const passkeyInfo = z.object({
  _id: objectId,
  name: z.string(),
  credentialId: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type PasskeyInfo = z.infer<typeof passkeyInfo>;

/** A base64url string as WebAuthn's JSON carries ids and binary fields. */
const base64url = z
  .string()
  .min(1)
  .max(16384)
  .regex(/^[A-Za-z0-9_-]+$/);

/** `PublicKeyCredentialCreationOptionsJSON` / `...RequestOptionsJSON`: WebAuthn's, passed through. */
const webauthnOptions = z.looseObject({ challenge: z.string() });

/** The browser's answer to `navigator.credentials.create()` as `RegistrationResponseJSON`. */
export const registrationCredential = z.looseObject({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: base64url, attestationObject: base64url }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});

/** The browser's answer to `navigator.credentials.get()` as `AuthenticationResponseJSON`. */
export const authenticationCredential = z.looseObject({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: base64url, authenticatorData: base64url, signature: base64url }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});

/** `POST passkeys/registrationOptions {}` and `POST passkeys/authenticationOptions {}`. */
export const passkeyOptionsRequest = z.strictObject({});

/** `registrationOptions` -> `{options, message}`. */
export const registrationOptionsResponse = z.object({ options: webauthnOptions, message: z.string() });
export type RegistrationOptionsResponse = z.infer<typeof registrationOptionsResponse>;

/** `POST passkeys/register {response, name?}`. */
export const registerPasskeyRequest = z.strictObject({
  response: registrationCredential,
  name: z.string().trim().min(1).max(64).optional(),
});
export type RegisterPasskeyRequest = z.input<typeof registerPasskeyRequest>;

/** `register` -> `{passkey, message}`. */
export const registerPasskeyResponse = z.object({ passkey: passkeyInfo, message: z.string() });
export type RegisterPasskeyResponse = z.infer<typeof registerPasskeyResponse>;

/** `GET passkeys` -> `{passkeys, message}`, newest first. */
export const passkeysResponse = z.object({ passkeys: z.array(passkeyInfo), message: z.string() });
export type PasskeysResponse = z.infer<typeof passkeysResponse>;

/** `POST passkeys/remove {_id}`. */
export const removePasskeyRequest = z.strictObject({ _id: objectId });

/** `authenticationOptions` -> `{options, challengeId, message}` (discoverable credentials: no nickname). */
export const authenticationOptionsResponse = z.object({
  options: webauthnOptions,
  challengeId: objectId,
  message: z.string(),
});
export type AuthenticationOptionsResponse = z.infer<typeof authenticationOptionsResponse>;

/** `POST passkeys/login {challengeId, response, cAppAuthRequest?}` -> as `login`. */
export const passkeyLoginRequest = z.strictObject({
  challengeId: objectId,
  response: authenticationCredential,
  /** A creator app's consent request (DESIGN §7): the answer is then `{url, message}`, not a session. */
  cAppAuthRequest: objectId.optional(),
});
export type PasskeyLoginRequest = z.input<typeof passkeyLoginRequest>;

/** `passkeys/login`: a session (a passkey is two factors, so never `mfaRequired`), or a creator app's URL. */
export const passkeyLoginResponse = z.union([authResponse, cappLoginResponse]);
export type PasskeyLoginResponse = z.infer<typeof passkeyLoginResponse>;
