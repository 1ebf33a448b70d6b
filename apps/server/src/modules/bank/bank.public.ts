/**
 * What other modules may use of the bank's currencies: the kept currency list (the leaderboard shows a
 * ticker and precision without a query), a currency row read or locked in the caller's transaction (a pair
 * checks both of its currencies), every currency row (the transaction lists name them), and the currency a synth chip sale's seed creates.
 */
export { type KeptCurrencies, startKeptCurrencies } from './currencies.cache.ts';
export {
  type CurrencyRow,
  findCurrencies,
  findCurrency,
  insertCurrency,
  lockCurrencyCreation,
  nextCurrencyId,
} from './currencies.queries.ts';
export { findTransfersContext, postTransfers } from './transfers.queries.ts';
