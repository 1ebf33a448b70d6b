/** Query keys of the admin console's server data, so mutations can refresh what they change. */
export const adminKeys = {
  currencyStats: ['admin', 'currency-stats'] as const,
};
