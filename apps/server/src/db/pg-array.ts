import pg from 'pg';

/** Builds a PostgreSQL array literal ('{"a","b",NULL}') to bind as one parameter, e.g. `${pgArray(xs)}::text[]`. */
export function pgArray(values: ReadonlyArray<string | number | boolean | null>): string {
  const items = values.map((v) => {
    if (v === null) return 'NULL';
    const s = String(v);
    return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}

/**
 * `value` as a quoted SQL string literal (pg's `escapeLiteral`: quotes doubled, an E'' literal when it holds
 * a backslash), for SQL text sent without parameters (`TransactionOptions.first`).
 */
export function sqlLiteral(value: string): string {
  return pg.escapeLiteral(value);
}
