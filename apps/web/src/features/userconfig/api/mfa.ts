/**
 * The authenticator app (DESIGN §11.1): `POST mfa/totp/setup {}`, `mfa/totp/enable {code}`,
 * `mfa/totp/disable {code}` and `mfa/recoveryCodes {code}`. Turning it on or off refreshes the stored
 * member (`User.mfa`).
 */
import type { MfaCodeRequest, RecoveryCodesResponse, TotpSetupResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { getMe } from '../../../lib/me.ts';

/** A new pending secret with its QR code; 409 when TOTP is on. */
export function useTotpSetup() {
  return useMutation({ mutationFn: () => api<TotpSetupResponse>('POST', '/user/mfa/totp/setup', {}) });
}

/** Turns TOTP on with a first code: the ten recovery codes, shown once. */
export function useTotpEnable() {
  return useMutation({
    mutationFn: (body: MfaCodeRequest) => api<RecoveryCodesResponse>('POST', '/user/mfa/totp/enable', body),
    onSuccess: () => void getMe(),
  });
}

/** Turns TOTP off with a code or a recovery code. */
export function useTotpDisable() {
  return useMutation({
    mutationFn: (body: MfaCodeRequest) => api<{ message: string }>('POST', '/user/mfa/totp/disable', body),
    onSuccess: () => void getMe(),
  });
}

/** A new set of recovery codes (the old set stops working), with a code. */
export function useRegenerateRecoveryCodes() {
  return useMutation({
    mutationFn: (body: MfaCodeRequest) => api<RecoveryCodesResponse>('POST', '/user/mfa/recoveryCodes', body),
  });
}
