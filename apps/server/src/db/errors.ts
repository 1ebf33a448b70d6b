/**
 * What a database error says, whichever way it arrives: the driver's error (pg, PGlite) carries the
 * SQLSTATE in `code`; through Drizzle it sits in `cause`.
 */

/** The SQLSTATE and constraint name of a database error (both undefined for any other error). */
export function sqlErrorOf(err: unknown): { code: string | undefined; constraint: string | undefined } {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } } | null;
  const c = e?.cause?.code ? e.cause : e;
  return { code: c?.code, constraint: c?.constraint };
}

/** True for a unique violation (23505): the row exists already. */
export function isUniqueViolation(err: unknown): boolean {
  return sqlErrorOf(err).code === '23505';
}
