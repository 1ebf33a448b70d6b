/**
 * CSV exports (DESIGN §11.6): RFC 4180 (CRLF records, quotes by `csv-stringify`), UTF-8, a header row, ISO
 * dates in UTC, decimal strings, and OWASP's spreadsheet safety. The rows come from keyset pages read one
 * at a time as the client takes them (never the whole list in memory, never an OFFSET); when the client
 * goes away the reading stops.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** What one cell of a row shows: text, a number, or nothing (an empty cell). */
export type CsvCell = string | number | null | undefined;

/** One column: its header and how a row shows in it. */
export interface CsvColumn<R> {
  header: string;
  cell: (row: R) => CsvCell;
}

/** The first characters a spreadsheet reads as a formula (OWASP CSV injection; DESIGN §11.6). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell as it is written: text that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets a `'`
 * in front, so a spreadsheet shows it as text instead of running it (DESIGN §11.6, to the letter: a
 * negative amount such as `-5.00` is prefixed too). Null and undefined are an empty cell.
 */
export function safeCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * Keyset pages of a list: `next(after)` answers the page after the row `after` (null for the first page),
 * in the list's order, empty at the end. The page's last row is the next call's `after`.
 */
export type KeysetPages<R> = (after: R | null) => Promise<readonly R[]>;

/** Every row of `pages`, page by page, until an empty page or `signal` aborts (checked between pages). */
export async function* keysetRows<R>(pages: KeysetPages<R>, signal: AbortSignal): AsyncGenerator<R> {
  let after: R | null = null;
  while (!signal.aborted) {
    const page = await pages(after);
    if (page.length === 0) return;
    yield* page;
    after = page[page.length - 1] as R;
  }
}

/** A file name for `Content-Disposition`: `<name>-<YYYY-MM-DD>.csv` (UTC), plain ASCII. */
export function csvFileName(name: string, now = new Date()): string {
  return `${name.replace(/[^a-z0-9-]/gi, '')}-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * Streams the rows of `pages` to `reply` as CSV (`Content-Type: text/csv; charset=utf-8`, an attachment
 * named `fileName`): the header row of `columns`, then a record a row, each cell made safe (`safeCell`).
 * Backpressure reaches the database: a page is read when the client has taken the rows before it. When the
 * response closes early (the client went away) no further page is read and the stream ends. Call it from
 * a synchronous handler: an async one that returns nothing after sending a stream ends the response.
 */
export function sendCsv<R>(
  req: FastifyRequest,
  reply: FastifyReply,
  fileName: string,
  columns: readonly CsvColumn<R>[],
  pages: KeysetPages<R>,
): void {
  const gone = new AbortController();
  reply.raw.on('close', () => gone.abort());
  const records = Readable.from(
    (async function* () {
      for await (const row of keysetRows(pages, gone.signal)) yield columns.map((c) => safeCell(c.cell(row)));
    })(),
  );
  const csv = stringify({
    header: true,
    columns: columns.map((c) => safeCell(c.header)),
    record_delimiter: 'windows',
    // Quotes any cell holding a line break of either kind, not only the record delimiter's.
    quoted_match: /[\r\n]/,
  });
  pipeline(records, csv).catch((err: unknown) => {
    if (!gone.signal.aborted) req.log.error({ err }, 'a CSV export stopped');
  });
  reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(csv);
}
