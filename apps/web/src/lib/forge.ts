/** Display helpers of the forge shared by the member's Forge Logs and the admin's Forge Process Logs. */
import type { Currency, ForgeSide } from '@starlight/shared';
import { formatMoney } from '../components/Money.tsx';

/** SPEC §2 "ticker x amount times quantity": `SD x 10.50 × 3` (amount at the currency's precision). */
export function forgeSideText(side: ForgeSide, quantity: number, currency: Currency | undefined): string {
  const ticker = currency?.ticker ?? `#${side.currencyId}`;
  return `${ticker} x ${formatMoney(side.amount, currency)} × ${quantity}`;
}
