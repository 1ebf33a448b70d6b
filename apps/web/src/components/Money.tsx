/** An amount shown at its currency's precision (DESIGN §3: formatting only at display time). */
import { type Currency, formatAmount, fromNumeric } from '@starlight/shared';

/** Formats a decimal string at the currency's precision; unknown currency: as given. */
export function formatMoney(amount: string, currency: Currency | undefined): string {
  if (!currency) return amount;
  const a = fromNumeric(amount);
  const text = formatAmount(a, currency.precision);
  const [whole, frac] = text.split('.');
  const grouped = (whole ?? '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

export function Money({
  amount,
  currency,
  withTicker = true,
}: {
  amount: string;
  currency?: Currency;
  withTicker?: boolean;
}) {
  return (
    <span style={{ fontVariantNumeric: 'tabular-nums' }}>
      {formatMoney(amount, currency)}
      {withTicker && currency ? ` ${currency.ticker}` : ''}
    </span>
  );
}
