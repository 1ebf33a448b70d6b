/**
 * Sign-in with a passkey (DESIGN §11.1): `POST passkeys/authenticationOptions {}`, the browser's passkey
 * prompt (`startAuthentication`, discoverable credentials: no nickname), then `POST passkeys/login`, which
 * answers as `login` (`{user, token, message}`, or `{url, message}` with `cAppAuthRequest`).
 */
import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import type { AuthenticationOptionsResponse, PasskeyLoginResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Runs the passkey sign-in; throws the server's message or the browser's refusal. */
export async function passkeyLogin(cAppAuthRequest?: string): Promise<PasskeyLoginResponse> {
  const { options, challengeId } = await api<AuthenticationOptionsResponse>(
    'POST',
    '/user/passkeys/authenticationOptions',
    {},
  );
  // The shared schema passes WebAuthn's options through unchecked; they are the server library's own.
  const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
  const response = await startAuthentication({ optionsJSON });
  return api<PasskeyLoginResponse>('POST', '/user/passkeys/login', {
    challengeId,
    response,
    ...(cAppAuthRequest ? { cAppAuthRequest } : {}),
  });
}

/** The passkey sign-in mutation (its `isPending` drives the button). */
export function usePasskeyLogin() {
  return useMutation({ mutationFn: passkeyLogin });
}
