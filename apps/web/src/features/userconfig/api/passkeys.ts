/**
 * The member's passkeys (DESIGN §11.1): `GET passkeys`; adding one (`registrationOptions`, the browser's
 * `startRegistration`, `register {response, name?}`); removing one (`remove {_id}`), after which the
 * browser is told the credential is gone (WebAuthn Signal API, where the browser has it), so its
 * password manager stops offering it.
 */
import { type PublicKeyCredentialCreationOptionsJSON, sendSignal, startRegistration } from '@simplewebauthn/browser';
import type {
  PasskeyInfo,
  PasskeysResponse,
  RegisterPasskeyResponse,
  RegistrationOptionsResponse,
} from '@starlight/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** The caller's passkeys, newest first. */
export function usePasskeys(enabled = true) {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: queryKeys.passkeys(token),
    enabled: Boolean(token) && enabled,
    queryFn: () => api<PasskeysResponse>('GET', '/user/passkeys'),
  });
}

/** Creates a passkey on this device (the browser's prompt) and adds it as `name` (the server's default when empty). */
async function addPasskey(name: string): Promise<RegisterPasskeyResponse> {
  const { options } = await api<RegistrationOptionsResponse>('POST', '/user/passkeys/registrationOptions', {});
  // The shared schema passes WebAuthn's options through unchecked; they are the server library's own.
  const optionsJSON = options as unknown as PublicKeyCredentialCreationOptionsJSON;
  const response = await startRegistration({ optionsJSON });
  const trimmed = name.trim();
  return api<RegisterPasskeyResponse>('POST', '/user/passkeys/register', {
    response,
    ...(trimmed ? { name: trimmed } : {}),
  });
}

/**
 * Tells the browser a passkey no longer exists here (`PublicKeyCredential.signalUnknownCredential`), when it
 * has the Signal API: best effort, a browser without it, or one that refuses, changes nothing.
 */
function signalRemoved(credentialId: string): void {
  const pkc = (globalThis as { PublicKeyCredential?: { signalUnknownCredential?: unknown } }).PublicKeyCredential;
  if (typeof pkc?.signalUnknownCredential !== 'function') return;
  sendSignal({ signalName: 'unknownCredential', rpID: window.location.hostname, credentialID: credentialId }).catch(
    () => undefined,
  );
}

/** Adds a passkey; the list is read again after. */
export function useAddPasskey() {
  const client = useQueryClient();
  const token = useSession((s) => s.token);
  return useMutation({
    mutationFn: addPasskey,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.passkeys(token) }),
  });
}

/** Removes a passkey and signals the browser; the list is read again after. */
export function useRemovePasskey() {
  const client = useQueryClient();
  const token = useSession((s) => s.token);
  return useMutation({
    mutationFn: async (passkey: PasskeyInfo) => {
      const res = await api<{ message: string }>('POST', '/user/passkeys/remove', { _id: passkey._id });
      signalRemoved(passkey.credentialId);
      return res;
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.passkeys(token) }),
  });
}
