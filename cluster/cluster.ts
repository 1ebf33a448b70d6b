/**
 * `make cluster`, `make cluster-stop`, `make cluster-restart`, `make cluster-failover`: Starlight as it runs on
 * several machines, on this one. Under CLUSTER_DIR: a PostgreSQL primary and a hot standby fed by
 * streaming replication, PgBouncer in transaction mode in front of the primary, Redis for the shared
 * rate limits (the machine's when one answers), CLUSTER_REPLICAS API servers and HAProxy on CLUSTER_PORT
 * balancing HTTP and WebSocket over them, health-checked on /api/ready. The settings are those of
 * `deploy/`; missing Debian packages are installed, as `.ci/run` installs Chromium.
 *
 * Usage: node cluster/cluster.ts start | stop | restart | failover (cluster/failover.ts)
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import {
  alive,
  type ClusterEnv,
  type ClusterSettings,
  clusterSettings,
  hasPostgres,
  pgBinDir,
  readClusterEnv,
  replicaPids,
  waitFor,
  writeClusterEnv,
} from './cluster-env.ts';
import { failover } from './failover.ts';
import { haproxyCommand, haproxyServerUp } from './haproxy.ts';
import {
  baseBackup,
  initPrimary,
  type PgNode,
  pgNodes,
  pgUrl,
  psql,
  setSynchronous,
  startNode,
  syncStandbyNames,
  waitStreaming,
  writePgbouncerIni,
} from './pg-nodes.ts';
import { chownToPostgres, DB_NAME, has, ownedByPostgres, pidOf, ROOT, render, run, sleep, stopPid } from './proc.ts';
import { refuseImplicitSandbox, replicaEnvironment } from './replica-env.ts';

/**
 * Starts both PostgreSQL nodes (initialising the primary and copying it into the standby on the first
 * run), creates the app's database, and once the standby streams sets synchronous replication as
 * CLUSTER_SYNC_REPLICATION says. Returns the nodes by their role now (a failover swaps them).
 */
async function startPostgres(s: ClusterSettings, bin: string): Promise<{ primary: PgNode; standby: PgNode }> {
  const nodes = pgNodes(s);
  const { primary, standby } = nodes;
  if (!existsSync(path.join(primary.data, 'PG_VERSION'))) initPrimary(s, bin, primary);
  startNode(bin, primary);
  if (psql(bin, primary.port, [`SELECT 1 FROM pg_database WHERE datname = '${DB_NAME}'`]) !== '1')
    psql(bin, primary.port, [`CREATE DATABASE ${DB_NAME}`]);
  if (!existsSync(path.join(standby.data, 'PG_VERSION'))) baseBackup(bin, standby, primary.port);
  startNode(bin, standby);
  if (psql(bin, standby.port, ['SELECT pg_is_in_recovery()']) !== 't')
    throw new Error('the standby is not in recovery');
  await waitStreaming(bin, primary.port, 60_000);
  setSynchronous(bin, primary.port, syncStandbyNames(s));
  return nodes;
}

function startPgbouncer(s: ClusterSettings, nodes: { primary: PgNode; standby: PgNode }): number {
  const dir = path.join(s.dir, 'pgbouncer');
  ownedByPostgres(dir);
  const ini = writePgbouncerIni(s, nodes.primary.port, nodes.standby.port);
  writeFileSync(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
  chownToPostgres(path.join(dir, 'userlist.txt'));
  run(existsSync('/usr/sbin/pgbouncer') ? '/usr/sbin/pgbouncer' : 'pgbouncer', ['-d', ini], {
    asPostgres: true,
    quiet: true,
  });
  return pidOf(path.join(dir, 'pgbouncer.pid'));
}

/** True when a Redis answers PING on 127.0.0.1:`port`. */
function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

/** The machine's Redis when it answers, else one of the cluster's own (nothing kept on disk). */
async function startRedis(s: ClusterSettings): Promise<{ url: string; pid: string }> {
  if (await redisAnswers(6379)) return { url: 'redis://127.0.0.1:6379', pid: '' };
  const pidFile = path.join(s.dir, 'redis.pid');
  run('redis-server', [
    '--port',
    String(s.CLUSTER_REDIS_PORT),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--daemonize',
    'yes',
    '--pidfile',
    pidFile,
    '--logfile',
    path.join(s.dir, 'logs', 'redis.log'),
  ]);
  for (let i = 0; i < 50 && !(await redisAnswers(s.CLUSTER_REDIS_PORT)); i++) await sleep(100);
  return { url: `redis://127.0.0.1:${s.CLUSTER_REDIS_PORT}`, pid: String(pidOf(pidFile)) };
}

/** A secret kept in CLUSTER_DIR (made once), so restarts keep sessions and the admin's password. */
function kept(s: ClusterSettings, name: string, make: () => string): string {
  const file = path.join(s.dir, name);
  if (!existsSync(file)) writeFileSync(file, make(), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/**
 * HAProxy's source address towards the replicas, and the only one whose X-Forwarded-For they believe:
 * a client on 127.0.0.1 (HAProxy's or a replica's port) cannot choose its own address.
 */
const PROXY_SOURCE = '127.0.0.2';

/** The environment every replica runs with, but its port (cluster/replica-env.ts); throws as that does. */
function replicaEnv(s: ClusterSettings, env: Omit<ClusterEnv, 'REPLICA_PIDS' | 'HAPROXY_PID'>): ReplicaEnv {
  const wiring = {
    HOST: '127.0.0.1',
    // All through PgBouncer (deploy/pgbouncer.ini), which a failover repoints.
    DATABASE_URL: env.PGBOUNCER_URL,
    DATABASE_LISTEN_URL: `${env.PGBOUNCER_URL}_listen`,
    DATABASE_READ_URL: `${env.PGBOUNCER_URL}_read`,
    REDIS_URL: env.REDIS_URL,
    DATA_DIR: path.join(s.dir, 'data'),
    TRUST_PROXY: PROXY_SOURCE,
  };
  const defaults = {
    JWT_SECRET: kept(s, 'jwt-secret', () => randomBytes(48).toString('base64url')),
    ADMIN_NICKNAME: env.ADMIN_NICKNAME,
    ADMIN_PASSWORD: env.ADMIN_PASSWORD,
    PUBLIC_URL: env.LB_URL,
  };
  return (port) => replicaEnvironment(process.env, wiring, defaults, port);
}

/** A replica's environment for its port. */
type ReplicaEnv = (port: number) => NodeJS.ProcessEnv;

/** Starts replica `i` on its port; resolves with its pid once it answers /api/ready. */
async function startReplica(s: ClusterSettings, i: number, env: ReplicaEnv): Promise<number> {
  const port = s.CLUSTER_REPLICA_PORT + i;
  const log = openSync(path.join(s.dir, 'logs', `replica-${i + 1}.log`), 'a');
  const flags = readFileSync(path.join(ROOT, 'apps/server/node-flags'), 'utf8').trim().split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...flags, path.join(ROOT, 'apps/server/dist/server.js')], {
    cwd: ROOT,
    env: env(port),
    detached: true,
    stdio: ['ignore', log, log],
  });
  child.unref();
  if (!child.pid) throw new Error(`replica ${i + 1} did not start`);
  await waitFor(`http://127.0.0.1:${port}/api/ready`, 120_000);
  return child.pid;
}

function startHaproxy(s: ClusterSettings, ports: number[]): { pid: number; socket: string } {
  const dir = path.join(s.dir, 'haproxy');
  mkdirSync(dir, { recursive: true });
  const socket = path.join(dir, 'admin.sock');
  const cfg = path.join(dir, 'haproxy.cfg');
  writeFileSync(
    cfg,
    render('haproxy.cfg', {
      HAPROXY_SOCKET: socket,
      LB_BIND: '0.0.0.0',
      CLUSTER_PORT: s.CLUSTER_PORT,
      PROXY_SOURCE,
      HAPROXY_SERVERS: ports.map((p, i) => `    server replica${i + 1} 127.0.0.1:${p} check`).join('\n'),
    }),
  );
  const pidFile = path.join(dir, 'haproxy.pid');
  run(existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy', ['-D', '-f', cfg, '-p', pidFile], {
    quiet: true,
  });
  return { pid: pidOf(pidFile), socket };
}

/** Installs what is missing of Debian's postgresql, pgbouncer and haproxy. */
function ensurePackages(): string {
  const missing = [
    ...(hasPostgres() ? [] : ['postgresql']),
    ...(has('pgbouncer') || existsSync('/usr/sbin/pgbouncer') ? [] : ['pgbouncer']),
    ...(has('haproxy') || existsSync('/usr/sbin/haproxy') ? [] : ['haproxy']),
  ];
  if (missing.length > 0) {
    console.log(`Installing Debian's ${missing.join(', ')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env });
  }
  return pgBinDir();
}

async function start(s: ClusterSettings): Promise<void> {
  const existing = readClusterEnv(s.dir);
  if (existing && replicaPids(existing).some(alive)) {
    console.log(`The cluster is already up: ${existing.LB_URL} (make cluster-stop stops it)`);
    return;
  }
  try {
    refuseImplicitSandbox(process.env);
  } catch (err) {
    console.error((err as Error).message);
    process.exitCode = 1;
    return;
  }
  const bin = ensurePackages();
  mkdirSync(path.join(s.dir, 'logs'), { recursive: true });
  ownedByPostgres(path.join(s.dir, 'logs'));
  const partial: Partial<ClusterEnv> = { REPLICA_PIDS: '', HAPROXY_PID: '', PGBOUNCER_PID: '', REDIS_PID: '' };
  const save = () => writeClusterEnv(s.dir, { ...blankEnv(), ...partial });
  try {
    const nodes = pgNodes(s);
    partial.PRIMARY_PGDATA = nodes.primary.data;
    partial.PRIMARY_URL = pgUrl(nodes.primary.port);
    partial.STANDBY_PGDATA = nodes.standby.data;
    partial.STANDBY_URL = pgUrl(nodes.standby.port);
    save();
    await startPostgres(s, bin);
    partial.PGBOUNCER_PID = String(startPgbouncer(s, nodes));
    partial.PGBOUNCER_URL = pgUrl(s.CLUSTER_PGBOUNCER_PORT);
    const redis = await startRedis(s);
    partial.REDIS_URL = redis.url;
    partial.REDIS_PID = redis.pid;
    partial.LB_URL = `http://localhost:${s.CLUSTER_PORT}`;
    partial.ADMIN_NICKNAME = process.env.ADMIN_NICKNAME || 'admin';
    partial.ADMIN_PASSWORD =
      process.env.ADMIN_PASSWORD || kept(s, 'admin-password', () => `Cl${randomBytes(12).toString('base64url')}!9a`);
    save();
    const env = replicaEnv(s, { ...blankEnv(), ...partial });
    // The first replica migrates and seeds the database alone; the others start together after it.
    const pids = [await startReplica(s, 0, env)];
    partial.REPLICA_PIDS = pids.join(' ');
    save();
    const rest = Array.from({ length: s.CLUSTER_REPLICAS - 1 }, (_, k) => startReplica(s, k + 1, env));
    pids.push(...(await Promise.all(rest)));
    const ports = pids.map((_, i) => s.CLUSTER_REPLICA_PORT + i);
    partial.REPLICA_PIDS = pids.join(' ');
    partial.REPLICA_PORTS = ports.join(' ');
    save();
    const haproxy = startHaproxy(s, ports);
    partial.HAPROXY_PID = String(haproxy.pid);
    partial.HAPROXY_SOCKET = haproxy.socket;
    save();
    await waitFor(`http://127.0.0.1:${s.CLUSTER_PORT}/api/ready`, 30_000);
  } catch (err) {
    console.error(`The cluster did not start: ${(err as Error).message}\nStopping what started.`);
    await stop(s);
    process.exitCode = 1;
    return;
  }
  console.log(
    [
      '',
      `  Starlight cluster: open ${partial.LB_URL}`,
      `  ${s.CLUSTER_REPLICAS} replicas on ports ${partial.REPLICA_PORTS} behind HAProxy; PgBouncer ${partial.PGBOUNCER_URL}`,
      `  primary ${partial.PRIMARY_URL}, standby ${partial.STANDBY_URL}, Redis ${partial.REDIS_URL}`,
      `  Admin: ${partial.ADMIN_NICKNAME} / ${partial.ADMIN_PASSWORD}`,
      `  Settings and process ids: ${path.join(s.dir, 'cluster.env')}; logs in ${path.join(s.dir, 'logs')}`,
      '',
    ].join('\n'),
  );
}

function blankEnv(): ClusterEnv {
  return {
    LB_URL: '',
    PRIMARY_URL: '',
    STANDBY_URL: '',
    PGBOUNCER_URL: '',
    PRIMARY_PGDATA: '',
    STANDBY_PGDATA: '',
    REPLICA_PIDS: '',
    REPLICA_PORTS: '',
    REDIS_URL: '',
    ADMIN_NICKNAME: '',
    ADMIN_PASSWORD: '',
    HAPROXY_PID: '',
    HAPROXY_SOCKET: '',
    PGBOUNCER_PID: '',
    REDIS_PID: '',
  };
}

/** Stops, by process id, everything `start` started: replicas (draining), HAProxy, PgBouncer, PostgreSQL, Redis. */
async function stop(s: ClusterSettings): Promise<void> {
  const env = readClusterEnv(s.dir);
  if (!env) {
    console.log('No cluster here (no cluster.env).');
    return;
  }
  await Promise.all(replicaPids(env).map((pid) => stopPid(pid, 'SIGTERM')));
  // HAProxy's last log lines (its in-memory ring) are kept with the other logs.
  if (env.HAPROXY_SOCKET && existsSync(env.HAPROXY_SOCKET)) {
    const events = await haproxyCommand(env.HAPROXY_SOCKET, 'show events requests').catch(() => '');
    writeFileSync(path.join(s.dir, 'logs', 'haproxy.log'), events);
  }
  for (const pid of [env.HAPROXY_PID, env.PGBOUNCER_PID]) if (pid) await stopPid(Number(pid), 'SIGTERM');
  // SIGINT is PostgreSQL's fast shutdown: sessions end, the data is checkpointed.
  for (const data of [env.STANDBY_PGDATA, env.PRIMARY_PGDATA]) {
    const pidFile = data && path.join(data, 'postmaster.pid');
    if (pidFile && existsSync(pidFile)) await stopPid(pidOf(pidFile), 'SIGINT', 60_000);
  }
  if (env.REDIS_PID) await stopPid(Number(env.REDIS_PID), 'SIGTERM');
  rmSync(path.join(s.dir, 'cluster.env'), { force: true });
  console.log('The cluster is stopped (its data stays in CLUSTER_DIR for the next make cluster).');
}

/**
 * Restarts the replicas one at a time: SIGTERM (readiness off, drain), wait for the exit, start, wait until
 * it is ready and HAProxy has it back in the rotation; REPLICA_PIDS is rewritten after each.
 */
async function restart(s: ClusterSettings): Promise<void> {
  const env = readClusterEnv(s.dir);
  if (!env || !replicaPids(env).some(alive)) throw new Error('No cluster is up: run make cluster first.');
  const pids = replicaPids(env);
  const renv = replicaEnv(s, env);
  for (const [i, pid] of pids.entries()) {
    await stopPid(pid, 'SIGTERM');
    pids[i] = await startReplica(s, i, renv);
    writeClusterEnv(s.dir, { ...env, REPLICA_PIDS: pids.join(' ') });
    const until = Date.now() + 30_000;
    while (!(await haproxyServerUp(env.HAPROXY_SOCKET, `replica${i + 1}`))) {
      if (Date.now() > until) throw new Error(`HAProxy did not take replica ${i + 1} back within 30 s`);
      await sleep(100);
    }
    console.log(`replica ${i + 1} restarted (pid ${pids[i]})`);
  }
}

const command = process.argv[2];
const settings = clusterSettings();
if (command === 'start') await start(settings);
else if (command === 'stop') await stop(settings);
else if (command === 'restart') await restart(settings);
else if (command === 'failover') await failover(settings);
else {
  console.error('Usage: node cluster/cluster.ts start | stop | restart | failover');
  process.exitCode = 2;
}
