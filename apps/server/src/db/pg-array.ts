import pg from 'pg';

/** A character an array element must escape inside its double quotes. */
const ESCAPED = /[\\"]/;

/** One element of an array literal: numbers and booleans bare, strings quoted (escaped only when needed). */
function element(v: string | number | boolean | null): string {
  if (v === null) return 'NULL';
  if (typeof v !== 'string') return String(v);
  return ESCAPED.test(v) ? `"${v.replace(/[\\"]/g, '\\$&')}"` : `"${v}"`;
}

/**
 * Builds a PostgreSQL array literal ('{"a","b",NULL}', numbers and booleans bare: '{1,2,true}') to bind as
 * one parameter, e.g. `${pgArray(xs)}::text[]`. A batch of group commit builds dozens per statement, so
 * a string is escaped only when it holds a quote or a backslash.
 */
export function pgArray(values: ReadonlyArray<string | number | boolean | null>): string {
  return `{${values.map(element).join(',')}}`;
}

/**
 * `value` as a quoted SQL string literal (pg's `escapeLiteral`: quotes doubled, an E'' literal when it holds
 * a backslash), for SQL text sent without parameters (`TransactionOptions.first`).
 */
export function sqlLiteral(value: string): string {
  return pg.escapeLiteral(value);
}
