/** Display helpers of the forge shared by the member's Forge Logs and the admin's Forge Process Logs. */
import { type Currency, type ForgeSide, fromNumeric, toDecimalString } from '@starlight/shared';
import { formatMoney } from '../../../components/Money.tsx';

/** SPEC §2 "ticker x amount times quantity": `SD x 10.50 × 3` (amount at the currency's precision). */
export function forgeSideText(side: ForgeSide, quantity: number, currency: Currency | undefined): string {
  const ticker = currency?.ticker ?? `#${side.currencyId}`;
  return `${ticker} x ${formatMoney(side.amount, currency)} × ${quantity}`;
}

/** SPEC §2 forge cards, "currency name x amount": `Stardust x 25.00` (× `quantity` when given). */
export function recipeSideText(side: ForgeSide, currency: Currency | undefined, quantity = 1): string {
  const total = toDecimalString(fromNumeric(side.amount) * BigInt(quantity));
  return `${currency?.name ?? `#${side.currencyId}`} x ${formatMoney(total, currency)}`;
}
