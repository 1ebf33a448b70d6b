/**
 * The transaction log's filters and page in the URL (DESIGN §1: filters and paging kept in the URL and
 * validated with Zod). One schema serves the member's User Logs (/userbank) and the admin's Tnx Logs
 * (/dashboard?view=admin&tab=tnx): both send SPEC §7's transactions filters (and ours, `categoryGroup`). Keys carry a `tx` prefix so
 * they never meet a route's `tab` / `view` or another log's filters. An invalid value in a URL is
 * dropped (`.catch(undefined)`), so a hand-edited link falls back to the defaults instead of failing.
 */
import { amountFilter, nickname, type TransactionsRequest, TX_CATEGORY_LABELS } from '@starlight/shared';
import { z } from 'zod';

/** SPEC §5 / §9: log filter limit options, default 10. */
export const TX_LOG_LIMITS = ['10', '20', '50'] as const;
const DEFAULT_LIMIT = 10;

const dropInvalid = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/**
 * Free text (a nickname or an amount). The router JSON-parses search values, so `?txAbove=10` arrives
 * as the number 10: both forms are accepted and read back with `String()` (see `urlText`).
 */
const text = (rule: z.ZodType) =>
  dropInvalid(z.union([z.string(), z.number()]).refine((v) => rule.safeParse(String(v)).success));

export const txLogSearch = z.object({
  txPage: dropInvalid(z.number().int().min(1)),
  txLimit: dropInvalid(z.union([z.literal(10), z.literal(20), z.literal(50)])),
  txNickname: text(nickname),
  txFrom: dropInvalid(z.iso.date()),
  txTo: dropInvalid(z.iso.date()),
  txCurrency: dropInvalid(z.number().int().min(1)),
  txCategory: dropInvalid(z.number().refine((c) => Object.hasOwn(TX_CATEGORY_LABELS, c))),
  /** A group of categories (`market`: 50 and 51), chosen in the Category filter as one value. */
  txGroup: dropInvalid(z.enum(['market'])),
  txAbove: text(amountFilter),
  txBelow: text(amountFilter),
});
export type TxLogSearch = z.infer<typeof txLogSearch>;

const TX_KEYS = txLogSearch.keyof().options;

/** The values of the filter form: what the inputs hold, as text ('' = no filter). */
export type TxLogFilters = {
  limit: string;
  nickname: string;
  startDate: string | null;
  endDate: string | null;
  currencyId: string;
  /** A category's number, or a group's name (`CATEGORY_GROUP_VALUES`). */
  category: string;
  amountAbove: string;
  amountBelow: string;
};

/** Only the transaction log's keys of a route's search (drops `tab`, `view` and the like). */
export function pickTxLogSearch(search: TxLogSearch): TxLogSearch {
  const out: Record<string, unknown> = {};
  for (const key of TX_KEYS) if (search[key] !== undefined) out[key] = search[key];
  return out as TxLogSearch;
}

export const pageOf = (search: TxLogSearch): number => search.txPage ?? 1;
export const limitOf = (search: TxLogSearch): number => search.txLimit ?? DEFAULT_LIMIT;

/** The same filters on another page (page 1 is left out of the URL). */
export function withPage(search: TxLogSearch, page: number): TxLogSearch {
  return { ...search, txPage: page > 1 ? page : undefined };
}

/** The same filters with another page size, back on page 1 (10 is left out of the URL). */
export function withLimit(search: TxLogSearch, limit: number): TxLogSearch {
  return { ...search, txLimit: limitValue(String(limit)), txPage: undefined };
}

const str = (v: string | number | undefined) => (v === undefined ? '' : String(v));

/** The filter form's values for a URL's search. */
export function filtersFromSearch(search: TxLogSearch): TxLogFilters {
  return {
    limit: String(limitOf(search)),
    nickname: str(search.txNickname),
    startDate: search.txFrom ?? null,
    endDate: search.txTo ?? null,
    currencyId: str(search.txCurrency),
    category: search.txGroup ?? str(search.txCategory),
    amountAbove: str(search.txAbove),
    amountBelow: str(search.txBelow),
  };
}

function limitValue(limit: string): TxLogSearch['txLimit'] {
  const n = Number(limit);
  return n === 20 || n === 50 ? n : undefined;
}

/**
 * Typed text as a URL value: a number when it reads back as the same text (`10` stays `?txAbove=10`
 * rather than the JSON-quoted `?txAbove=%2210%22`), else the text itself; '' is no value.
 */
export function urlText(value: string): string | number | undefined {
  const t = value.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) && String(n) === t ? n : t;
}

/** The Category filter's values that name a group of categories rather than one. */
export const CATEGORY_GROUP_VALUES = ['market'] as const;
const isGroup = (value: string): value is (typeof CATEGORY_GROUP_VALUES)[number] =>
  (CATEGORY_GROUP_VALUES as readonly string[]).includes(value);

const urlNumber = (value: string) => (value.trim() === '' ? undefined : Number(value));
const urlDate = (value: string | null) => (value ? value.slice(0, 10) : undefined);

/** The search a submitted filter form writes: page 1 (SPEC §4: Search goes back to page 1). */
export function searchFromFilters(filters: TxLogFilters): TxLogSearch {
  const search: TxLogSearch = {
    txLimit: limitValue(filters.limit),
    txNickname: urlText(filters.nickname),
    txFrom: urlDate(filters.startDate),
    txTo: urlDate(filters.endDate),
    txCurrency: urlNumber(filters.currencyId),
    txCategory: isGroup(filters.category) ? undefined : urlNumber(filters.category),
    txGroup: isGroup(filters.category) ? filters.category : undefined,
    txAbove: urlText(filters.amountAbove),
    txBelow: urlText(filters.amountBelow),
  };
  return pickTxLogSearch(search);
}

/** The POST /api/bank/transactions (or /alltransactions) body for a search; empty filters dropped. */
export function requestFromSearch(search: TxLogSearch): TransactionsRequest {
  const body: TransactionsRequest = { paging: { limit: limitOf(search), page: pageOf(search) } };
  if (search.txNickname !== undefined) body.nickname = String(search.txNickname);
  if (search.txFrom) body.startDate = search.txFrom;
  if (search.txTo) body.endDate = search.txTo;
  if (search.txCurrency !== undefined) body.currencyId = search.txCurrency;
  if (search.txCategory !== undefined) body.category = search.txCategory;
  if (search.txGroup !== undefined) body.categoryGroup = search.txGroup;
  if (search.txAbove !== undefined) body.amountAbove = String(search.txAbove);
  if (search.txBelow !== undefined) body.amountBelow = String(search.txBelow);
  return body;
}

/** Whether two searches ask the server for the same rows (same filters, size and page). */
export function sameRequest(a: TxLogSearch, b: TxLogSearch): boolean {
  return JSON.stringify(requestFromSearch(a)) === JSON.stringify(requestFromSearch(b));
}

/**
 * What a filter form would send, for its inline validation against the shared request schema: a value
 * the URL schema would drop is refused in the form instead, with SPEC §5's message.
 */
export function requestFromFilters(filters: TxLogFilters): TransactionsRequest {
  return requestFromSearch(searchFromFilters(filters));
}
