/**
 * POST /api/bank/mint and /api/bank/burn (admin): `{recipientNickName, currencyId, amount, note}` ->
 * `{message}`. Money moves, so each submission carries an Idempotency-Key (DESIGN §3).
 */
import type { MintRequest } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useIdempotentMutation } from '../../../lib/use-idempotency-key.ts';

export type SupplyAction = 'mint' | 'burn';

export function mintOrBurn(
  action: SupplyAction,
  body: MintRequest,
  idempotencyKey: string,
): Promise<{ message: string }> {
  return api<{ message: string }>('POST', action === 'mint' ? '/bank/mint' : '/bank/burn', body, { idempotencyKey });
}

/** The mutation (variables: the body, keyed per submission); its dialog's `useAdminSubmit` toasts failures. */
export function useMintOrBurn(action: SupplyAction) {
  return useIdempotentMutation({
    send: (body: MintRequest, idempotencyKey: string) => mintOrBurn(action, body, idempotencyKey),
    toastErrors: false,
  });
}
