/** A member's withdrawal addresses for an admin (DESIGN §11.2): `POST /api/bank/getUserWithdrawAddresses`. */
import type { WithdrawAddressesResponse } from '@starlight/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The addresses and switch of the member named `nickname`; idle while `nickname` is empty. */
export function useUserWithdrawAddresses(nickname: string) {
  return useQuery({
    queryKey: queryKeys.userWithdrawAddresses(nickname),
    enabled: nickname !== '',
    retry: false,
    queryFn: () => api<WithdrawAddressesResponse>('POST', '/bank/getUserWithdrawAddresses', { nickname }),
  });
}
