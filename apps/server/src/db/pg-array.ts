/** Builds a PostgreSQL array literal ('{"a","b",NULL}') to bind as one parameter, e.g. `${pgArray(xs)}::text[]`. */
export function pgArray(values: ReadonlyArray<string | number | boolean | null>): string {
  const items = values.map((v) => {
    if (v === null) return 'NULL';
    const s = String(v);
    return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}
