/** Request and response schemas of the bank routes (SPEC §7 Bank, DESIGN §3, §4). */
import { z } from 'zod';
import {
  amountFilter,
  amountInput,
  category,
  currencyId,
  currencyName,
  decimalString,
  fraction,
  isoDate,
  nickname,
  note,
  paging,
  precision,
  ticker,
  totalCapped,
  url,
} from './common.ts';
import { user } from './user.ts';

/** SPEC §3 Currency; taxes are fraction strings ("0.05"). */
export const currency = z.object({
  currencyId: z.number().int(),
  ticker: z.string(),
  name: z.string(),
  precision: z.number().int(),
  canDeposit: z.boolean(),
  canWithdraw: z.boolean(),
  canTransfer: z.boolean(),
  canMint: z.boolean(),
  canBurn: z.boolean(),
  isFrozen: z.boolean(),
  frozenNote: z.string(),
  depositTax: decimalString,
  withdrawTax: decimalString,
  transferTax: decimalString,
  taxCollector: z.string(),
  imgUrl: z.string(),
});
export type Currency = z.infer<typeof currency>;

export const currenciesResponse = z.object({ currencies: z.array(currency), message: z.string() });

const currencyFields = {
  ticker,
  name: currencyName,
  precision,
  canDeposit: z.boolean(),
  canWithdraw: z.boolean(),
  canTransfer: z.boolean(),
  canMint: z.boolean(),
  canBurn: z.boolean(),
  isFrozen: z.boolean(),
  frozenNote: note,
  depositTax: fraction,
  withdrawTax: fraction,
  transferTax: fraction,
  taxCollector: z.union([nickname, z.literal('')]),
  imgUrl: z.union([url, z.literal('')]),
};

/** `createCurrency`: every field but currencyId; optional ones default (DESIGN §3). */
export const createCurrencyRequest = z.strictObject({
  ticker: currencyFields.ticker,
  name: currencyFields.name,
  precision: currencyFields.precision,
  canDeposit: currencyFields.canDeposit,
  canWithdraw: currencyFields.canWithdraw,
  canTransfer: currencyFields.canTransfer,
  canMint: currencyFields.canMint,
  canBurn: currencyFields.canBurn,
  isFrozen: currencyFields.isFrozen.optional(),
  frozenNote: currencyFields.frozenNote.optional(),
  depositTax: currencyFields.depositTax.optional(),
  withdrawTax: currencyFields.withdrawTax.optional(),
  transferTax: currencyFields.transferTax.optional(),
  taxCollector: currencyFields.taxCollector.optional(),
  imgUrl: currencyFields.imgUrl.optional(),
});
export type CreateCurrencyRequest = z.input<typeof createCurrencyRequest>;
/** `createCurrency` as the server receives it, parsed (taxes as Amount fractions). */
export type CreateCurrencyInput = z.output<typeof createCurrencyRequest>;

/** `modifyCurrency`: currencyId and any subset of the others except ticker. */
export const modifyCurrencyRequest = z.strictObject({
  currencyId,
  ...createCurrencyRequest.omit({ ticker: true }).partial().shape,
});
export type ModifyCurrencyRequest = z.input<typeof modifyCurrencyRequest>;
/** `modifyCurrency` as the server receives it, parsed. */
export type ModifyCurrencyInput = z.output<typeof modifyCurrencyRequest>;

export const currencyResponse = z.object({ currency, message: z.string() });

/** SPEC §7 p2pTransfer: note optional. */
export const p2pTransferRequest = z.strictObject({
  recipientNickName: nickname,
  currencyId,
  amount: amountInput,
  note: note.optional(),
});
export type P2pTransferRequest = z.input<typeof p2pTransferRequest>;
/** `p2pTransfer` as the server receives it, parsed (`amount` an Amount). */
export type P2pTransferInput = z.output<typeof p2pTransferRequest>;
export const p2pTransferResponse = z.object({ senderUser: user, message: z.string() });

/** SPEC §5 Mint: note required, 4 to 255. Burn takes the same body. */
export const mintRequest = z.strictObject({
  recipientNickName: nickname,
  currencyId,
  amount: amountInput,
  note: z.string().min(4).max(255),
});
export type MintRequest = z.input<typeof mintRequest>;
/** `mint` / `burn` as the server receives it, parsed. */
export type MintInput = z.output<typeof mintRequest>;

export const distributeCurrencyRequest = z.strictObject({
  currencyId,
  amount: amountInput,
  targetCurrencyId: currencyId,
  note: note.optional(),
});
export type DistributeCurrencyRequest = z.input<typeof distributeCurrencyRequest>;
/** `distributeCurrency` as the server receives it, parsed. */
export type DistributeCurrencyInput = z.output<typeof distributeCurrencyRequest>;
export const distributeCurrencyResponse = z.object({
  senderUser: user,
  recipients: z.number().int(),
  distributed: decimalString,
  message: z.string(),
});

const party = z.object({ nickname: z.string() }).nullable();

/** SPEC §3 bank transaction (DESIGN §3: executor, sender, recipient each {nickname} or null). */
export const transaction = z.object({
  _id: z.string(),
  createdAt: z.string(),
  executor: party,
  sender: party,
  recipient: party,
  balance: z.object({ currencyId: z.number().int(), amount: decimalString }),
  category: z.number().int(),
  note: z.string(),
  reference: z.string().nullable(),
});
export type Transaction = z.infer<typeof transaction>;

const txFilters = {
  paging,
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  currencyId: currencyId.optional(),
  amountAbove: amountFilter.optional(),
  amountBelow: amountFilter.optional(),
  category: category.optional(),
  /** Ours: only the rows of a group of categories, `market` = 50 Market Purchase and 51 Market Royalty. */
  categoryGroup: z.enum(['market']).optional(),
};

/**
 * Own transactions: `nickname` narrows to the other party. `seekDate` (ours): answer instead the page
 * (of `paging.limit` rows) holding the newest matching row at or before the end of that day (UTC), and
 * say which page it is (`page` in the answer); `paging.page` is then ignored.
 */
export const transactionsRequest = z.strictObject({
  ...txFilters,
  nickname: nickname.optional(),
  seekDate: isoDate.optional(),
});
export type TransactionsRequest = z.input<typeof transactionsRequest>;
/** `transactions` / `alltransactions` as the server receives it, parsed (amount bounds as Amounts). */
export type TransactionsQuery = z.output<typeof transactionsRequest>;
/** Admin Tnx Logs: every filter of SPEC §2 (nickname = any party). */
export const allTransactionsRequest = transactionsRequest;
/**
 * A page of ledger rows. `total` stays the same from page to page of one list (it moves only when the
 * ledger does): the exact count, or `LEDGER_COUNT_CAP` with `totalCapped` when more match. `page`: the
 * page answered, when the request sought a date.
 */
export const transactionsResponse = z.object({
  txs: z.array(transaction),
  total: z.number().int(),
  totalCapped,
  page: z.number().int().optional(),
  message: z.string(),
});
export type TransactionsResponse = z.infer<typeof transactionsResponse>;

export const currencyStatsRequest = z.strictObject({
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  currencyId: currencyId.optional(),
});
export type CurrencyStatsRequest = z.input<typeof currencyStatsRequest>;
/** `currencyStats` as the server receives it, parsed. */
export type CurrencyStatsQuery = z.output<typeof currencyStatsRequest>;
export const currencyStatsEntry = z.object({
  _id: z.number().int(),
  categories: z.array(z.object({ category: z.number().int(), total: decimalString, count: z.number().int() })),
  totals: decimalString,
  circulating: decimalString,
});
export type CurrencyStatsEntry = z.infer<typeof currencyStatsEntry>;
export const currencyStatsResponse = z.object({ currencyStats: z.array(currencyStatsEntry), message: z.string() });

/** Bucket widths of `supplyHistory`. */
export const SUPPLY_INTERVALS = ['1h', '1d'] as const;
export type SupplyInterval = (typeof SUPPLY_INTERVALS)[number];

/**
 * `supplyHistory` (public, ours): a currency's supply and circulating at the end of each of the last
 * `limit` buckets, the current one included. `limit` 1..366, default 200 (as getCandles).
 */
export const supplyHistoryRequest = z.strictObject({
  currencyId,
  interval: z.enum(SUPPLY_INTERVALS),
  limit: z.number().int().min(1).max(366).optional(),
});
export type SupplyHistoryRequest = z.input<typeof supplyHistoryRequest>;
/** `supplyHistory` as the server receives it, parsed. */
export type SupplyHistoryQuery = z.output<typeof supplyHistoryRequest>;
/**
 * One bucket: `time` is its start (ISO 8601 UTC); `supply` (issued - removed, DESIGN §4) and
 * `circulating` (SPEC §3) count every ledger row before the bucket's end.
 */
export const supplyPoint = z.object({ time: z.string(), supply: decimalString, circulating: decimalString });
export type SupplyPoint = z.infer<typeof supplyPoint>;
export const supplyHistoryResponse = z.object({ points: z.array(supplyPoint), message: z.string() });
export type SupplyHistoryResponse = z.infer<typeof supplyHistoryResponse>;

/**
 * `supplyHistories` (public, ours): every currency's supply history in one answer (the /analytics page):
 * the last `limit` buckets of `interval` each, as `supplyHistory` answers them for one currency.
 */
export const supplyHistoriesRequest = z.strictObject({
  interval: z.enum(SUPPLY_INTERVALS),
  limit: z.number().int().min(1).max(366).optional(),
});
export type SupplyHistoriesRequest = z.input<typeof supplyHistoriesRequest>;
/** `supplyHistories` as the server receives it, parsed. */
export type SupplyHistoriesQuery = z.output<typeof supplyHistoriesRequest>;
/** One currency's points, oldest first (see `supplyPoint`). */
export const currencySupplyHistory = z.object({ currencyId: z.number().int(), points: z.array(supplyPoint) });
export type CurrencySupplyHistory = z.infer<typeof currencySupplyHistory>;
export const supplyHistoriesResponse = z.object({
  histories: z.array(currencySupplyHistory),
  message: z.string(),
});
export type SupplyHistoriesResponse = z.infer<typeof supplyHistoriesResponse>;

/** DESIGN §4 conservation check, per currency. */
export const auditEntry = z.object({
  currencyId: z.number().int(),
  ticker: z.string(),
  balances: decimalString,
  escrow: decimalString,
  issued: decimalString,
  removed: decimalString,
  difference: decimalString,
  negativeBalances: z.number().int(),
  ok: z.boolean(),
});
/**
 * One check of the audit besides conservation: a tripwire of the incremental audit (the
 * ledger's append-only triggers, rows updated or deleted, statistics reset, storage rewritten, rows
 * backdated below the rollup's watermark) or the full recount's comparison of the rollup with the ledger.
 */
export const auditCheck = z.object({ name: z.string(), ok: z.boolean(), detail: z.string() });
export type AuditCheck = z.infer<typeof auditCheck>;
/**
 * `GET /api/bank/audit` query: `full=true` recounts the whole ledger (and compares the rollup
 * with it); without it the audit is incremental (rollup totals up to the checkpoint, then the rows after).
 */
export const auditQuery = z.strictObject({ full: z.enum(['true', 'false']).optional() });
export type AuditQuery = z.infer<typeof auditQuery>;
/**
 * DESIGN §4's audit, extended: `mode`, `checkpoint` (the rollup's watermark, ISO 8601 UTC, null
 * before it is built), `checks`, and `checkedAt` (ISO 8601 UTC: when the conservation figures were taken,
 * the latest stored check's snapshot or now); `ok` is true only when every currency and every check passes.
 */
export const auditResponse = z.object({
  ok: z.boolean(),
  currencies: z.array(auditEntry),
  message: z.string(),
  mode: z.enum(['incremental', 'full']),
  checkpoint: z.string().nullable(),
  checks: z.array(auditCheck),
  checkedAt: z.string(),
});
export type AuditResponse = z.infer<typeof auditResponse>;
