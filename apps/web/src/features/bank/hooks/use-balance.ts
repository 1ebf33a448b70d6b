/** The signed-in member's balance of one currency, in 10^-9 units (SPEC §2 popups' 'Available'). */
import { fromNumeric } from '@starlight/shared';
import { useMe } from '../../../lib/me.ts';
import { useSession } from '../../../lib/session.ts';

/**
 * The member's balance of `currencyId` as a bigint of 10^-9 units (0 when they hold none), from the fresh
 * `me` or else the stored user; null with no currency chosen or nobody signed in.
 */
export function useBalanceOf(currencyId: number | undefined): bigint | null {
  const me = useMe();
  const user = useSession((s) => s.user);
  const balances = (me.data ?? user)?.balances;
  if (currencyId === undefined || !balances) return null;
  const found = balances.find((b) => b.currencyId === currencyId);
  return found ? fromNumeric(found.amount) : 0n;
}
