/**
 * The ledger's one entry (DESIGN §4): only the ledger writes or locks balances. `postEntries` posts a
 * batch's entries; `lockBalances` opens the rows a batch will credit and locks every row it touches, in
 * the global order; `openBalanceRows` opens rows ahead of a posting. `HAS_CURRENCY` is the one SQL test of
 * whether an account holds any currency, which the user list and the user stats both ask.
 */
export { BatchBalances, lockBalances, openBalanceRows } from './ledger.balances.ts';
export type { Entry } from './ledger.entry.ts';
export { HAS_CURRENCY } from './ledger.holdings.ts';
export { balancesAfterPosting, type PostAlong, postEntries } from './ledger.posting.ts';
