/**
 * `make cluster-failover`: the standby becomes the primary and the former primary comes back as its
 * standby, with no hand edits. It works whether the primary is up (a planned switchover: it is stopped
 * first, and its last WAL reaches the standby as it stops) or has crashed (with synchronous replication
 * the standby has every acknowledged commit). Steps: stop the old primary; promote the standby, with
 * synchronous replication off while it has no standby; repoint PgBouncer (writes, the event bus's LISTEN
 * and the reads) at it and swap the roles in `cluster.env`; bring the old primary back as the standby by
 * pg_rewind (a fresh base backup when it crashed, or when the rewound node does not follow); once it has
 * caught up, synchronous replication back on and the reads on it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { alive, type ClusterSettings, pgBinDir, readClusterEnv, writeClusterEnv } from './cluster-env.ts';
import {
  baseBackup,
  type PgNode,
  pgNodes,
  pgUrl,
  psql,
  rejoin,
  reloadPgbouncer,
  setSynchronous,
  startNode,
  syncStandbyNames,
  waitStreaming,
  writePgbouncerIni,
} from './pg-nodes.ts';
import { pidOf, run } from './proc.ts';

/**
 * Stops `node` if it runs: a fast shutdown (its WAL sent to the standby first), immediate if that fails.
 * Returns true when it was not running, or only an immediate stop stopped it: it crashed.
 */
function stopIfRunning(bin: string, node: PgNode): boolean {
  const pidFile = path.join(node.data, 'postmaster.pid');
  if (!existsSync(pidFile) || !alive(pidOf(pidFile))) return true;
  const pgCtl = (mode: string) =>
    run(path.join(bin, 'pg_ctl'), ['-D', node.data, '-m', mode, '-w', '-t', '30', 'stop'], {
      asPostgres: true,
      quiet: true,
    });
  try {
    pgCtl('fast');
    return false;
  } catch {
    pgCtl('immediate');
    return true;
  }
}

/** Stops `node` (fast) and makes it a standby of `primaryPort` again by a fresh base backup. */
async function rebuild(bin: string, node: PgNode, primaryPort: number): Promise<void> {
  stopIfRunning(bin, node);
  baseBackup(bin, node, primaryPort);
  startNode(bin, node);
  await waitStreaming(bin, primaryPort, 120_000);
}

/**
 * Fails the cluster of `s` over to its standby (see the file's comment); throws Error when there is no
 * cluster or the standby is not a running standby, before anything is changed.
 */
export async function failover(s: ClusterSettings): Promise<void> {
  const env = readClusterEnv(s.dir);
  if (!env) throw new Error('No cluster is up: run make cluster first.');
  const bin = pgBinDir();
  const { primary: old, standby: next } = pgNodes(s);
  if (psql(bin, next.port, ['SELECT pg_is_in_recovery()']) !== 't')
    throw new Error(`the standby (port ${next.port}) is not in recovery: nothing to fail over to`);
  const t0 = Date.now();
  const at = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

  // Never two primaries: the old one is down before the standby is promoted.
  const crashed = stopIfRunning(bin, old);
  run(path.join(bin, 'pg_ctl'), ['-D', next.data, '-w', '-t', '60', 'promote'], { asPostgres: true, quiet: true });
  // No standby to wait for until the old primary is back: commits must not hang meanwhile.
  setSynchronous(bin, next.port, '');
  writePgbouncerIni(s, next.port, next.port);
  reloadPgbouncer(bin, s);
  writeClusterEnv(s.dir, {
    ...env,
    PRIMARY_URL: pgUrl(next.port),
    PRIMARY_PGDATA: next.data,
    STANDBY_URL: pgUrl(old.port),
    STANDBY_PGDATA: old.data,
  });
  console.log(`${at()}: port ${next.port} (${next.name}/) is the primary; PgBouncer points at it`);

  let how = rejoin(bin, old, next.port, crashed);
  startNode(bin, old);
  try {
    await waitStreaming(bin, next.port, how === 'pg_rewind' ? 20_000 : 120_000);
  } catch (err) {
    if (how !== 'pg_rewind') throw err;
    console.log(`${at()}: the rewound node does not follow; taking a fresh base backup`);
    await rebuild(bin, old, next.port);
    how = 'pg_basebackup';
  }
  setSynchronous(bin, next.port, syncStandbyNames(s));
  writePgbouncerIni(s, next.port, old.port);
  reloadPgbouncer(bin, s);
  console.log(`${at()}: port ${old.port} (${old.name}/) is its standby again (${how}), reads go to it`);
}
