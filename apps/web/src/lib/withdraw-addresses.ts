/**
 * The member's withdrawal addresses and the "allowed addresses only" switch (DESIGN §11.2), read by
 * Settings and by the Withdraw popup: `POST /api/bank/withdrawAddresses {}`. Also what the answer means
 * for a withdrawal: whether the switch holds now, which addresses a currency may go to, and the end of a
 * security hold.
 */
import type { WithdrawAddress, WithdrawAddressesResponse } from '@starlight/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './api.ts';
import { queryKeys } from './query-keys.ts';
import { useSession } from './session.ts';

/** The signed-in member's addresses, newest first, with the switch and the security hold. */
export function useWithdrawAddresses({ enabled = true }: { enabled?: boolean } = {}) {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: queryKeys.withdrawAddresses(token),
    enabled: enabled && Boolean(token),
    queryFn: () => api<WithdrawAddressesResponse>('POST', '/bank/withdrawAddresses', {}),
  });
}

/** True while a date-time (ISO) lies ahead. */
export function isAhead(iso: string | null, now = Date.now()): iso is string {
  return iso !== null && new Date(iso).getTime() > now;
}

/**
 * Whether a withdrawal must go to a saved, active address now: the switch is on, or it was turned off
 * and the hold before that takes effect (`allowListOffFrom`) has not passed.
 */
export function isAllowListInForce(list: WithdrawAddressesResponse, now = Date.now()): boolean {
  return list.allowListOnly || isAhead(list.allowListOffFrom, now);
}

/** Whether the member asked for the switch off and it is still on until `allowListOffFrom`. */
export function isTurningOff(list: WithdrawAddressesResponse, now = Date.now()): boolean {
  return isAhead(list.allowListOffFrom, now);
}

/** The end of the security hold (ISO) while it runs, else null. */
export function pausedUntil(list: WithdrawAddressesResponse | undefined, now = Date.now()): string | null {
  return list && isAhead(list.withdrawalsPausedUntil, now) ? list.withdrawalsPausedUntil : null;
}

/** The addresses a withdrawal of `currencyId` may go to now. */
export function activeAddressesFor(list: WithdrawAddressesResponse | undefined, currencyId: number): WithdrawAddress[] {
  return (list?.addresses ?? []).filter((a) => a.currencyId === currencyId && a.state === 'active');
}
