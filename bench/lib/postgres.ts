/** PostgreSQL from the benchmarks: the connection settings, psql for one-off SQL, fresh databases. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Where PostgreSQL listens: BENCH_PG_HOST/PORT/USER (defaults 127.0.0.1:5432, postgres, trust auth).
 * A host starting with `/` is a Unix socket directory (e.g. /var/run/postgresql), for pgbench too.
 */
export interface PgTarget {
  host: string;
  port: number;
  user: string;
}

export function pgTarget(env: NodeJS.ProcessEnv = process.env): PgTarget {
  return {
    host: env.BENCH_PG_HOST ?? '127.0.0.1',
    port: Number(env.BENCH_PG_PORT ?? 5432),
    user: env.BENCH_PG_USER ?? 'postgres',
  };
}

/** The connection URL of `database` on `pg` (a socket directory is percent-encoded, as pg expects). */
export function databaseUrl(pg: PgTarget, database: string): string {
  const host = pg.host.startsWith('/') ? encodeURIComponent(pg.host) : pg.host;
  return `postgres://${encodeURIComponent(pg.user)}@${host}:${pg.port}/${database}`;
}

/** The libpq command-line arguments for `pg` (shared by psql and pgbench). */
export function pgArgs(pg: PgTarget): string[] {
  return ['-h', pg.host, '-p', String(pg.port), '-U', pg.user];
}

/** Runs `sql` with psql on `database`; returns the unaligned, tuples-only output, trimmed. */
export async function psql(pg: PgTarget, database: string, sql: string): Promise<string> {
  const psqlBin = process.env.BENCH_PSQL ?? 'psql';
  const { stdout } = await run(
    psqlBin,
    [...pgArgs(pg), '-d', database, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', sql],
    {
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return stdout.trim();
}

/** Drops `database` (disconnecting its sessions) and creates it empty. */
export async function recreateDatabase(pg: PgTarget, database: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`Unsafe database name ${database}`);
  await psql(pg, 'postgres', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await psql(pg, 'postgres', `CREATE DATABASE ${database}`);
}
