/**
 * The cluster's two PostgreSQL nodes and PgBouncer's view of them, shared by `make cluster` and `make
 * cluster-failover`. Node `primary` (folder CLUSTER_DIR/primary, port CLUSTER_PG_PORT) and node `standby`
 * (folder CLUSTER_DIR/standby, the next port) keep their folders and ports for good; which one is the
 * primary now is on disk: the one without `standby.signal`. Every database address the replicas use is
 * PgBouncer's (writes, the event bus's LISTEN, reads), so a failover repoints PgBouncer and nothing else.
 */
import { appendFileSync, copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ClusterSettings } from './cluster-env.ts';
import { chownToPostgres, DB_NAME, ownedByPostgres, ROOT, render, run, sleep } from './proc.ts';

/** One PostgreSQL node: its data folder, port and log file. */
export interface PgNode {
  name: 'primary' | 'standby';
  data: string;
  port: number;
  log: string;
}

/** The standby's `application_name`, the one `synchronous_standby_names` names. */
const STANDBY_NAME = 'standby';

/** The two nodes by their role now: the primary is the node without `standby.signal`. */
export function pgNodes(s: ClusterSettings): { primary: PgNode; standby: PgNode } {
  const node = (name: PgNode['name'], port: number): PgNode => ({
    name,
    data: path.join(s.dir, name),
    port,
    log: path.join(s.dir, 'logs', `${name}.log`),
  });
  const a = node('primary', s.CLUSTER_PG_PORT);
  const b = node('standby', s.CLUSTER_PG_PORT + 1);
  // After a failover node `standby` is the primary; while its successor is rebuilt `primary` may be empty.
  const swapped = existsSync(path.join(b.data, 'PG_VERSION')) && !existsSync(path.join(b.data, 'standby.signal'));
  return swapped ? { primary: b, standby: a } : { primary: a, standby: b };
}

/** The URL of `db` on 127.0.0.1:`port` as `postgres`. */
export function pgUrl(port: number, db = DB_NAME): string {
  return `postgres://postgres@127.0.0.1:${port}/${db}`;
}

/** Runs each of `sql` (one statement each, outside a transaction block) on `port`; the last one's rows. */
export function psql(bin: string, port: number, sql: string[], db = 'postgres'): string {
  const args = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', db, '-Atq'];
  for (const q of sql) args.push('-c', q);
  return run(path.join(bin, 'psql'), args, { quiet: true }).trim();
}

/** `synchronous_standby_names` for CLUSTER_SYNC_REPLICATION: a commit waits for the standby's flush. */
export function syncStandbyNames(s: ClusterSettings): string {
  return s.CLUSTER_SYNC_REPLICATION === 'on' ? `ANY 1 (${STANDBY_NAME})` : '';
}

/** Sets the primary's `synchronous_standby_names` to `names` ('' = asynchronous) and reloads it. */
export function setSynchronous(bin: string, port: number, names: string): void {
  psql(bin, port, [`ALTER SYSTEM SET synchronous_standby_names = '${names}'`, 'SELECT pg_reload_conf()']);
}

/**
 * Waits until the standby streams from the primary on `port` and has flushed all the WAL the primary had
 * when called (a standby that streams but cannot follow never gets there), for at most `ms`; throws after.
 */
export async function waitStreaming(bin: string, port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  const target = psql(bin, port, ['SELECT pg_current_wal_lsn()']);
  const sql = `SELECT count(*) FROM pg_stat_replication WHERE application_name = '${STANDBY_NAME}'
    AND state = 'streaming' AND flush_lsn >= '${target}'::pg_lsn`;
  while (psql(bin, port, [sql]) !== '1') {
    if (Date.now() > until) throw new Error(`the standby did not catch up with port ${port} within ${ms} ms`);
    await sleep(200);
  }
}

/** Starts `node` (pg_ctl, waiting until it accepts connections). */
export function startNode(bin: string, node: PgNode): void {
  run(path.join(bin, 'pg_ctl'), ['-D', node.data, '-l', node.log, '-w', '-t', '60', 'start'], {
    asPostgres: true,
    quiet: true,
  });
}

/** Makes node `primary`'s data folder with initdb and the settings of deploy/ (first run only). */
export function initPrimary(s: ClusterSettings, bin: string, node: PgNode): void {
  const runDir = path.join(s.dir, 'run');
  ownedByPostgres(runDir);
  ownedByPostgres(node.data);
  run(path.join(bin, 'initdb'), ['-D', node.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'], {
    asPostgres: true,
    quiet: true,
  });
  appendFileSync(
    path.join(node.data, 'postgresql.conf'),
    render('postgresql.primary.conf', { PRIMARY_PORT: node.port, RUN_DIR: runDir }),
  );
  copyFileSync(path.join(ROOT, 'deploy', 'pg_hba.conf'), path.join(node.data, 'pg_hba.conf'));
  chownToPostgres(path.join(node.data, 'pg_hba.conf'));
}

/** Makes `node` a standby of the primary on `primaryPort`: its own port, `primary_conninfo`, `standby.signal`. */
function follow(node: PgNode, primaryPort: number): void {
  const auto = path.join(node.data, 'postgresql.auto.conf');
  appendFileSync(
    auto,
    `port = ${node.port}\nprimary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres application_name=${STANDBY_NAME}'\n`,
  );
  const signal = path.join(node.data, 'standby.signal');
  writeFileSync(signal, '');
  for (const f of [auto, signal]) chownToPostgres(f);
}

/** Copies the primary on `primaryPort` into `node`'s (emptied) folder by pg_basebackup, as its standby. */
export function baseBackup(bin: string, node: PgNode, primaryPort: number): void {
  rmSync(node.data, { recursive: true, force: true });
  ownedByPostgres(node.data);
  const args = ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', node.data, '-X', 'stream'];
  run(path.join(bin, 'pg_basebackup'), [...args, '-c', 'fast'], { asPostgres: true, quiet: true });
  follow(node, primaryPort);
}

/**
 * Brings the stopped former primary `node` back as the standby of the primary on `primaryPort`: pg_rewind
 * when it was shut down cleanly, a fresh base backup when it crashed (PostgreSQL 15's pg_rewind answers
 * "no rewind required" for a crashed primary whose every record reached the standby, and the node then
 * cannot follow the new timeline) or when pg_rewind fails. Returns which one it took.
 */
export function rejoin(
  bin: string,
  node: PgNode,
  primaryPort: number,
  crashed: boolean,
): 'pg_rewind' | 'pg_basebackup' {
  if (crashed) {
    baseBackup(bin, node, primaryPort);
    return 'pg_basebackup';
  }
  rmSync(path.join(node.data, 'standby.signal'), { force: true });
  try {
    run(
      path.join(bin, 'pg_rewind'),
      ['-D', node.data, `--source-server=host=127.0.0.1 port=${primaryPort} user=postgres dbname=postgres`],
      { asPostgres: true, quiet: true },
    );
    follow(node, primaryPort);
    return 'pg_rewind';
  } catch (err) {
    console.log(`pg_rewind failed (${(err as Error).message.trim().slice(0, 600)}); taking a fresh base backup`);
    baseBackup(bin, node, primaryPort);
    return 'pg_basebackup';
  }
}

/**
 * Writes PgBouncer's configuration: database `starlight` (transaction pooling) and `starlight_listen` (the
 * event bus's LISTEN, session pooling) on the primary's port, `starlight_read` (session pooling, its
 * statements stay prepared) on `readPort`, the standby's, or the primary's while there is no standby.
 */
export function writePgbouncerIni(s: ClusterSettings, primaryPort: number, readPort: number): string {
  const dir = path.join(s.dir, 'pgbouncer');
  const ini = path.join(dir, 'pgbouncer.ini');
  const poolSize = Number(process.env.DB_POOL_SIZE || 20);
  writeFileSync(
    ini,
    render('pgbouncer.ini', {
      DB_NAME,
      PRIMARY_PORT: primaryPort,
      READ_PORT: readPort,
      READ_POOL_SIZE: Math.min(150, poolSize * s.CLUSTER_REPLICAS),
      LISTEN_POOL_SIZE: s.CLUSTER_REPLICAS + 2,
      PGBOUNCER_PORT: s.CLUSTER_PGBOUNCER_PORT,
      PGBOUNCER_DIR: dir,
    }),
  );
  chownToPostgres(ini);
  return ini;
}

/** Has PgBouncer read its configuration again (RELOAD on its admin console). */
export function reloadPgbouncer(bin: string, s: ClusterSettings): void {
  psql(bin, s.CLUSTER_PGBOUNCER_PORT, ['RELOAD'], 'pgbouncer');
}
