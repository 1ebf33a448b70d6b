/**
 * Amounts on screen, one way everywhere (DESIGN §3: formatting only at display time): digits
 * grouped by thousands at the currency's precision, the ticker after the amount: "1,000.00 CR".
 */
import { type Currency, formatAmount, fromNumeric } from '@starlight/shared';

/** Formats a decimal string at the currency's precision, without a ticker; unknown currency: as given. */
export function formatMoney(amount: string, currency: Currency | undefined): string {
  if (!currency) return amount;
  const a = fromNumeric(amount);
  const text = formatAmount(a, currency.precision);
  const [whole, frac] = text.split('.');
  const grouped = (whole ?? '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/**
 * An amount with its currency's ticker after it ("1,000.00 CR"), the one way a sentence or a cell names
 * an amount; `fallbackTicker` (e.g. "CR") stands in while the currency list is still loading.
 */
export function formatMoneyWithTicker(amount: string, currency: Currency | undefined, fallbackTicker = ''): string {
  const ticker = currency?.ticker ?? fallbackTicker;
  return ticker ? `${formatMoney(amount, currency)} ${ticker}` : formatMoney(amount, currency);
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
      {withTicker ? formatMoneyWithTicker(amount, currency) : formatMoney(amount, currency)}
    </span>
  );
}
