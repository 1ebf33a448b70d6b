/**
 * The ledger's one entry (DESIGN §4): only the ledger writes or locks balances. `postEntries` posts a
 * batch's entries; `lockBalances` opens the rows a batch will credit and locks every row it touches, in
 * the global order; `openBalanceRows` opens rows ahead of a posting.
 */
export { BatchBalances, lockBalances, openBalanceRows } from './ledger.balances.ts';
export type { Entry } from './ledger.entry.ts';
export { balancesAfterPosting, type PostAlong, postEntries } from './ledger.posting.ts';
