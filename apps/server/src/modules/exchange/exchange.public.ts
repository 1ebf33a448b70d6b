/**
 * What other modules may use of the exchange: its trade candles, kept by the ledger rollup's tick in the
 * same pass over committed rows (bank/rollup.queries.ts), so one job follows both tables.
 */
export { resetTradeCandles, tickTradeCandles } from './candles.queries.ts';
