/**
 * CSV exports (DESIGN §11.6): each export's filters as query parameters (its list's own filter schema,
 * without paging; integers as the digits of a query string) and the single-use download link.
 */
import { z } from 'zod';
import { getAccessLogsRequest, getAdminLogsRequest, getUsersRequest } from './admin.ts';
import { transactionsRequest } from './bank.ts';
import { getAllCheckoutsRequest } from './checkout.ts';
import { forgeProcessFilters } from './forge.ts';
import { getSettlementsRequest } from './settlements.ts';

/** The 400 of a date range whose end is before its start (DESIGN §11.6: bad filters get a clear message). */
export const DATE_RANGE_MESSAGE = 'The end date must not be before the start date';

/** A query parameter's digits as a number, so an integer filter's own rule checks it. */
const queryInt = (v: unknown) => (typeof v === 'string' && /^-?\d{1,10}$/.test(v.trim()) ? Number(v) : v);

/** True when both bounds are given and `end` is before `start` (date-only bounds compare by their day). */
function upsideDown(start: unknown, end: unknown): boolean {
  if (typeof start !== 'string' || typeof end !== 'string') return false;
  const from = Date.parse(start);
  const to = /^\d{4}-\d{2}-\d{2}$/.test(end) ? Date.parse(`${end}T23:59:59.999Z`) : Date.parse(end);
  return to < from;
}

/**
 * The query schema of a CSV export: `filters`' fields (a list's filter schema, strict: an unknown filter
 * is `"{name}" is not allowed`), `intKeys` read from a query string's digits, `token` the download link's
 * (DESIGN §11.6), and each `[start, end]` pair of `ranges` refused when upside down (`DATE_RANGE_MESSAGE`).
 */
export function csvQuery<T extends z.ZodRawShape>(
  filters: z.ZodObject<T>,
  intKeys: readonly (keyof T & string)[] = [],
  ranges: readonly [keyof T & string, keyof T & string][] = [],
) {
  const shape: Record<string, z.core.$ZodType> = { ...filters.shape };
  for (const key of intKeys) shape[key] = z.preprocess(queryInt, filters.shape[key] as z.core.$ZodType);
  const withToken = z.strictObject({ ...(shape as unknown as T), token: z.string().min(1).max(128).optional() });
  return withToken.superRefine((q, ctx) => {
    const values = q as Record<string, unknown>;
    for (const [start, end] of ranges) {
      if (upsideDown(values[start], values[end]))
        ctx.addIssue({ code: 'custom', path: [end], message: DATE_RANGE_MESSAGE });
    }
  });
}

/** `GET /api/bank/transactions.csv` and `alltransactions.csv`: the transaction lists' filters (no paging, no seek). */
export const transactionsCsvQuery = csvQuery(
  transactionsRequest.omit({ paging: true, seekDate: true }),
  ['category'],
  [['startDate', 'endDate']],
);
export type TransactionsCsvQuery = z.output<typeof transactionsCsvQuery>;

/** `GET /api/user/users.csv` (admin): the user list's filters. */
export const usersCsvQuery = csvQuery(getUsersRequest.omit({ paging: true }), [], [['createdAfter', 'createdBefore']]);
export type UsersCsvQuery = z.output<typeof usersCsvQuery>;

/** `GET /api/audit/accessLogs.csv` (admin): the Access Logs filters. */
export const accessLogsCsvQuery = csvQuery(
  getAccessLogsRequest.omit({ paging: true }),
  ['category'],
  [['startDate', 'endDate']],
);
export type AccessLogsCsvQuery = z.output<typeof accessLogsCsvQuery>;

/** `GET /api/audit/adminLogs.csv` (admin): the Admin Logs filters. */
export const adminLogsCsvQuery = csvQuery(
  getAdminLogsRequest.omit({ paging: true }),
  ['category'],
  [['startDate', 'endDate']],
);
export type AdminLogsCsvQuery = z.output<typeof adminLogsCsvQuery>;

/** `GET /api/forge/processes.csv` (admin): the Forge Process Logs filters (SPEC §2). */
export const processesCsvQuery = csvQuery(
  forgeProcessFilters,
  ['state'],
  [
    ['startAfter', 'startBefore'],
    ['finishAfter', 'finishBefore'],
  ],
);
export type ProcessesCsvQuery = z.output<typeof processesCsvQuery>;

/** `GET /api/checkout/checkouts.csv` (admin): the Checkout Logs filters (SPEC §2), flat. */
export const checkoutsCsvQuery = csvQuery(
  getAllCheckoutsRequest.shape.filters.unwrap(),
  ['state', 'checkoutProvider'],
  [['startDate', 'endDate']],
);
export type CheckoutsCsvQuery = z.output<typeof checkoutsCsvQuery>;

/** `GET /api/bank/settlements.csv` (admin): the settlement list's filters. */
export const settlementsCsvQuery = csvQuery(getSettlementsRequest.omit({ paging: true }));
export type SettlementsCsvQuery = z.output<typeof settlementsCsvQuery>;

/** The CSV exports a download link may open (DESIGN §11.6), by path. */
export const CSV_EXPORTS = {
  '/api/bank/transactions.csv': transactionsCsvQuery,
  '/api/bank/alltransactions.csv': transactionsCsvQuery,
  '/api/user/users.csv': usersCsvQuery,
  '/api/audit/accessLogs.csv': accessLogsCsvQuery,
  '/api/audit/adminLogs.csv': adminLogsCsvQuery,
  '/api/forge/processes.csv': processesCsvQuery,
  '/api/checkout/checkouts.csv': checkoutsCsvQuery,
  '/api/bank/settlements.csv': settlementsCsvQuery,
} as const;
export type CsvExportPath = keyof typeof CSV_EXPORTS;

/**
 * `POST /api/exports/link {path, query?}`: a download link for one export with these filters (query
 * parameters as text), single use, valid 60 seconds (DESIGN §11.6). Bad filters are refused here already,
 * with the export's own messages.
 */
export const exportLinkRequest = z
  .strictObject({
    path: z.enum(Object.keys(CSV_EXPORTS) as [CsvExportPath, ...CsvExportPath[]]),
    query: z.record(z.string().max(64), z.string().max(256)).optional(),
  })
  .superRefine((req, ctx) => {
    const parsed = CSV_EXPORTS[req.path].safeParse(req.query ?? {});
    if (parsed.success) return;
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: issue.path } as z.core.$ZodRawIssue);
  });
export type ExportLinkRequest = z.input<typeof exportLinkRequest>;
/** The link: `url` (a path with its query and `token`, to open once before `expiresAt`, ISO UTC). */
export const exportLinkResponse = z.object({ url: z.string(), expiresAt: z.string(), message: z.string() });
export type ExportLinkResponse = z.infer<typeof exportLinkResponse>;
