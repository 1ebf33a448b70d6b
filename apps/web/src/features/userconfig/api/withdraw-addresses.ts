/**
 * Changes to the member's withdrawal addresses (DESIGN §11.2): `POST /api/bank/addWithdrawAddress`
 * (mails a confirmation link), `removeWithdrawAddress {_id}`, `setAllowListOnly {on, mfaCode?}` and the
 * mailed link's `confirmWithdrawAddress {token}`. The list (`useWithdrawAddresses`) is read again after.
 */
import type {
  AddWithdrawAddressRequest,
  SetAllowListOnlyRequest,
  WithdrawAddressesResponse,
  WithdrawAddressResponse,
} from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

function useRefreshList() {
  const client = useQueryClient();
  const token = useSession((s) => s.token);
  return () => client.invalidateQueries({ queryKey: queryKeys.withdrawAddresses(token) });
}

/** Saves an address, unconfirmed until the mailed link is opened: `{address, message}`. */
export function useAddWithdrawAddress() {
  const refresh = useRefreshList();
  return useMutation({
    mutationFn: (body: AddWithdrawAddressRequest) =>
      api<WithdrawAddressResponse>('POST', '/bank/addWithdrawAddress', body),
    onSettled: refresh,
  });
}

/** Removes a saved address (`{_id}`) at once. */
export function useRemoveWithdrawAddress() {
  const refresh = useRefreshList();
  return useMutation({
    mutationFn: (body: { _id: string }) => api<{ message: string }>('POST', '/bank/removeWithdrawAddress', body),
    onSettled: refresh,
  });
}

/** Turns the switch on (at once) or off (after the hold); the answer is the whole list, kept as it is. */
export function useSetAllowListOnly() {
  const client = useQueryClient();
  const token = useSession((s) => s.token);
  return useMutation({
    mutationFn: (body: SetAllowListOnlyRequest) =>
      api<WithdrawAddressesResponse>('POST', '/bank/setAllowListOnly', body),
    onSuccess: (list) => client.setQueryData(queryKeys.withdrawAddresses(token), list),
  });
}

/** Confirms an address with the mailed link's token (no session needed): `{address, message}`. */
export function useConfirmWithdrawAddress() {
  const refresh = useRefreshList();
  return useMutation({
    mutationFn: (body: { token: string }) => api<WithdrawAddressResponse>('POST', '/bank/confirmWithdrawAddress', body),
    onSuccess: refresh,
  });
}
