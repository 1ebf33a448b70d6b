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

/** SQLSTATEs of a database that is gone or not taking work: connection exceptions (class 08), shutdowns. */
const UNAVAILABLE_STATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08P01',
]);
/** Node's socket errors when the database's address does not answer. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres's own messages for a lost or unreachable server (they carry no code). */
const LOST_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Connection ended unexpectedly',
];

/**
 * True when `err` (or an error it wraps, through Drizzle's `cause`) says the database cannot be reached
 * or is not taking work: refused or dropped connections, a shutdown or restart under way, no connection
 * within the pool's wait (such a request answers 503, never 500).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | null, depth = 0;
    e && depth < 5;
    depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code && (UNAVAILABLE_STATES.has(code) || SOCKET_ERRORS.has(code))) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (LOST_MESSAGES.some((m) => message.includes(m))) return true;
    e = e.cause as typeof e;
  }
  return false;
}
