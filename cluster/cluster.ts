/**
 * `make cluster`, `make cluster-stop`, `make cluster-restart`: Starlight as it runs on
 * several machines, on this one. Under CLUSTER_DIR: a PostgreSQL primary and a hot standby fed by
 * streaming replication, PgBouncer in transaction mode in front of the primary, Redis for the shared
 * rate limits (the machine's when one answers), CLUSTER_REPLICAS API servers and HAProxy on CLUSTER_PORT
 * balancing HTTP and WebSocket over them, health-checked on /api/ready. The settings are those of
 * `deploy/`; missing Debian packages are installed, as `.ci/run` installs Chromium.
 *
 * Usage: node cluster/cluster.ts start | stop | restart
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
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
import { haproxyCommand, haproxyServerUp } from './haproxy.ts';
import { refuseImplicitSandbox, replicaEnvironment } from './replica-env.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DB_NAME = 'starlight';
const IS_ROOT = process.getuid?.() === 0;

/** Runs a command, its output shown; throws when it fails. As `postgres` when asked and we are root. */
function run(cmd: string, args: string[], opts: { asPostgres?: boolean; quiet?: boolean } = {}): string {
  const [c, a] = opts.asPostgres && IS_ROOT ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  return execFileSync(c, a, { encoding: 'utf8', stdio: ['ignore', 'pipe', opts.quiet ? 'pipe' : 'inherit'] });
}

function has(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
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

/** `deploy/<name>` with every `${KEY}` replaced; throws on a key without a value. */
function render(name: string, values: Record<string, string | number>): string {
  return readFileSync(path.join(ROOT, 'deploy', name), 'utf8').replace(/\$\{([A-Z_]+)\}/g, (_, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`deploy/${name}: no value for \${${key}}`);
    return String(v);
  });
}

/** Gives `postgres` a file or folder, when we are root (PostgreSQL and PgBouncer refuse to run as root). */
function chownToPostgres(file: string): void {
  if (!IS_ROOT) return;
  const uid = Number(run('id', ['-u', 'postgres'], { quiet: true }).trim());
  const gid = Number(run('id', ['-g', 'postgres'], { quiet: true }).trim());
  chownSync(file, uid, gid);
}

/** Makes folder `dir` (if missing) for `postgres` alone, and lets `postgres` walk down to it. */
function ownedByPostgres(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!IS_ROOT) return;
  chownToPostgres(dir);
  chmodSync(dir, 0o700);
  // `postgres` must be able to walk down to it.
  for (let d = path.dirname(dir); d !== path.dirname(d); d = path.dirname(d)) {
    const mode = statSync(d).mode;
    if ((mode & 0o001) === 0) chmodSync(d, mode | 0o001);
  }
}

/**
 * The process id in the first line of a pid file (PostgreSQL's postmaster.pid, PgBouncer's, HAProxy's,
 * Redis's), waiting up to 10 s for a daemon to write it. Throws Error when none comes.
 */
function pidOf(file: string): number {
  // A daemon (pgbouncer -d, haproxy -D, redis --daemonize) writes its pid file after its parent has
  // exited, so the file may not be there yet: wait for it, up to 10 s (a clean clone's CI met the race).
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; ; waited += 50) {
    const pid = existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]?.trim()) : 0;
    if (Number.isInteger(pid) && pid > 0) return pid;
    if (waited >= 10_000) throw new Error(`no pid in ${file} after 10 s`);
    Atomics.wait(pause, 0, 0, 50);
  }
}

function pgUrl(port: number, db = DB_NAME): string {
  return `postgres://postgres@127.0.0.1:${port}/${db}`;
}

/** Starts (initialising on the first run) the primary; creates the app's database. */
function startPrimary(s: ClusterSettings, bin: string): string {
  const data = path.join(s.dir, 'primary');
  const runDir = path.join(s.dir, 'run');
  ownedByPostgres(runDir);
  if (!existsSync(path.join(data, 'PG_VERSION'))) {
    ownedByPostgres(data);
    run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'], {
      asPostgres: true,
      quiet: true,
    });
    appendFileSync(
      path.join(data, 'postgresql.conf'),
      render('postgresql.primary.conf', { PRIMARY_PORT: s.CLUSTER_PG_PORT, RUN_DIR: runDir }),
    );
    copyFileSync(path.join(ROOT, 'deploy', 'pg_hba.conf'), path.join(data, 'pg_hba.conf'));
    chownToPostgres(path.join(data, 'pg_hba.conf'));
  }
  const log = path.join(s.dir, 'logs', 'primary.log');
  run(path.join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '60', 'start'], { asPostgres: true, quiet: true });
  const psql = (sql: string) =>
    run(path.join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(s.CLUSTER_PG_PORT), '-U', 'postgres', '-Atc', sql], {
      quiet: true,
    }).trim();
  if (psql(`SELECT 1 FROM pg_database WHERE datname = '${DB_NAME}'`) !== '1') psql(`CREATE DATABASE ${DB_NAME}`);
  return data;
}

/** Starts (copying the primary by pg_basebackup on the first run) the hot standby. */
async function startStandby(s: ClusterSettings, bin: string): Promise<string> {
  const data = path.join(s.dir, 'standby');
  const port = s.CLUSTER_PG_PORT + 1;
  if (!existsSync(path.join(data, 'PG_VERSION'))) {
    rmSync(data, { recursive: true, force: true });
    ownedByPostgres(data);
    run(
      path.join(bin, 'pg_basebackup'),
      [
        '-h',
        '127.0.0.1',
        '-p',
        String(s.CLUSTER_PG_PORT),
        '-U',
        'postgres',
        '-D',
        data,
        '-R',
        '-X',
        'stream',
        '-c',
        'fast',
      ],
      { asPostgres: true, quiet: true },
    );
    appendFileSync(path.join(data, 'postgresql.auto.conf'), `port = ${port}\n`);
    chownToPostgres(path.join(data, 'postgresql.auto.conf'));
  }
  const log = path.join(s.dir, 'logs', 'standby.log');
  run(path.join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '60', 'start'], { asPostgres: true, quiet: true });
  const inRecovery = run(
    path.join(bin, 'psql'),
    ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', DB_NAME, '-Atc', 'SELECT pg_is_in_recovery()'],
    { quiet: true },
  ).trim();
  if (inRecovery !== 't') throw new Error('the standby is not in recovery');
  return data;
}

function startPgbouncer(s: ClusterSettings): number {
  const dir = path.join(s.dir, 'pgbouncer');
  ownedByPostgres(dir);
  const ini = path.join(dir, 'pgbouncer.ini');
  writeFileSync(
    ini,
    render('pgbouncer.ini', {
      DB_NAME,
      PRIMARY_PORT: s.CLUSTER_PG_PORT,
      PGBOUNCER_PORT: s.CLUSTER_PGBOUNCER_PORT,
      PGBOUNCER_DIR: dir,
    }),
  );
  writeFileSync(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
  for (const f of [ini, path.join(dir, 'userlist.txt')]) chownToPostgres(f);
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
    DATABASE_URL: env.PGBOUNCER_URL,
    DATABASE_LISTEN_URL: env.PRIMARY_URL,
    DATABASE_READ_URL: env.STANDBY_URL,
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

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Sends `signal` to `pid` and waits until it is gone (SIGKILL after `ms`). */
async function stopPid(pid: number, signal: NodeJS.Signals, ms = 20_000): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, signal);
  const until = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > until) {
      process.kill(pid, 'SIGKILL');
      await sleep(200);
      return;
    }
    await sleep(100);
  }
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
    partial.PRIMARY_PGDATA = startPrimary(s, bin);
    partial.PRIMARY_URL = pgUrl(s.CLUSTER_PG_PORT);
    save();
    partial.STANDBY_PGDATA = await startStandby(s, bin);
    partial.STANDBY_URL = pgUrl(s.CLUSTER_PG_PORT + 1);
    save();
    partial.PGBOUNCER_PID = String(startPgbouncer(s));
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
else {
  console.error('Usage: node cluster/cluster.ts start | stop | restart');
  process.exitCode = 2;
}
