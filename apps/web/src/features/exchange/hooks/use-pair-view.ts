/** A pair together with its two currencies (for precision, tickers and names). */
import type { Currency, Pair } from '@starlight/shared';
import { useCurrencies } from '../../../lib/currencies.ts';

export interface PairView {
  pair: Pair;
  buy: Currency | undefined;
  sell: Currency | undefined;
  /** Ticker of the traded asset and of what it is paid in (falls back to the id). */
  buyTicker: string;
  sellTicker: string;
}

export function usePairView(pair: Pair | undefined): PairView | null {
  const { byId } = useCurrencies();
  if (!pair) return null;
  const buy = byId.get(pair.buyCurrency);
  const sell = byId.get(pair.sellCurrency);
  return {
    pair,
    buy,
    sell,
    buyTicker: buy?.ticker ?? `#${pair.buyCurrency}`,
    sellTicker: sell?.ticker ?? `#${pair.sellCurrency}`,
  };
}
