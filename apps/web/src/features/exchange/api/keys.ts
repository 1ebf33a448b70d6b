/** Query keys of the exchange's server data, so the live feed and mutations update the right cache. */
export const exchangeKeys = {
  pairs: ['exchange', 'pairs'] as const,
  book: (pair: string) => ['exchange', 'book', pair] as const,
  depth: (pair: string) => ['exchange', 'depth', pair] as const,
  trades: (pair: string) => ['exchange', 'trades', pair] as const,
  candles: (pair: string, interval: string) => ['exchange', 'candles', pair, interval] as const,
  myOrders: (token: string | null) => ['exchange', 'my-orders', token] as const,
  /** Everything that follows a pair's book: refetched after a reconnect or an order of ours. */
  all: ['exchange'] as const,
};
