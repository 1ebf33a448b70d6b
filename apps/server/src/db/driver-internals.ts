/**
 * The one place that reaches past the public API of the database drivers, for the transactions of
 * `transaction.ts`:
 * - node-postgres's client socket (`client.connection.stream`), corked so that a transaction's BEGIN and
 *   the statements behind it leave in one write;
 * - Drizzle's internal handle (`drizzle(client)._`), to make one transaction object per pooled connection
 *   instead of Drizzle's pooled `transaction()`.
 * Each access checks the shape it relies on and throws `DriverInternalsError`, naming this file, when a
 * driver upgrade changed it; `test/db.driver-internals.test.ts` runs both against a real connection.
 */
import type { Socket } from 'node:net';
import { drizzle as drizzlePg, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Tx } from './client.ts';
import * as schema from './schema/index.ts';

/** A driver's private shape that this file relies on is gone or changed (after an upgrade of `pg` or Drizzle). */
export class DriverInternalsError extends Error {
  constructor(what: string) {
    super(
      `apps/server/src/db/driver-internals.ts: ${what}. A database driver upgrade changed its internals: ` +
        'fix that file before shipping (README, Upgrading dependencies).',
    );
    this.name = 'DriverInternalsError';
  }
}

/**
 * Corks the socket of `client` (node-postgres): its writes wait until the returned `uncork` is called.
 * Throws DriverInternalsError when the client has no `connection.stream` that corks.
 */
export function corkSocket(client: pg.PoolClient): () => void {
  const stream = (client as unknown as { connection?: { stream?: Partial<Socket> } }).connection?.stream;
  if (typeof stream?.cork !== 'function' || typeof stream.uncork !== 'function') {
    throw new DriverInternalsError('a pg client no longer has a socket at client.connection.stream with cork()');
  }
  stream.cork();
  return () => stream.uncork?.();
}

const dialect = new PgDialect();

type TransactionSchema = NonNullable<ConstructorParameters<typeof NodePgTransaction>[2]>;

/** What Drizzle keeps in `drizzle(client)._` and a transaction handle is made of. */
interface DrizzleInternal {
  session: ConstructorParameters<typeof NodePgTransaction>[1];
  schema: TransactionSchema['schema'];
  fullSchema: TransactionSchema['fullSchema'];
  tableNamesMap: TransactionSchema['tableNamesMap'];
}

/**
 * A Drizzle transaction handle that sends its statements on `client`, with the app's schema (for
 * `tx.query`). The caller sends BEGIN and COMMIT itself. Throws DriverInternalsError when Drizzle's
 * internal handle lacks its session.
 */
export function drizzleTransactionOn(client: pg.PoolClient): Tx {
  const internal = (drizzlePg(client, { schema }) as unknown as { _?: Partial<DrizzleInternal> })._;
  if (!internal?.session || !internal.schema || !internal.fullSchema || !internal.tableNamesMap) {
    throw new DriverInternalsError('drizzle(client)._ no longer holds session, schema, fullSchema and tableNamesMap');
  }
  const { session, schema: tables, fullSchema, tableNamesMap } = internal as DrizzleInternal;
  return new NodePgTransaction(dialect, session, { schema: tables, fullSchema, tableNamesMap }) as Tx;
}
