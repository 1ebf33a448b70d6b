/**
 * What other modules may use of the exchange: its trade candles, kept by the ledger rollup's tick in the
 * same pass over committed rows (reports/rollup.queries.ts), so one job follows both tables; and the full
 * audit's check of its orders and trades (reports/conservation.service.ts).
 */
export { resetTradeCandles, tickTradeCandles } from './candles.queries.ts';
export { countOrphanExchangeRows } from './orphans.queries.ts';
