/**
 * The cluster's settings and its `cluster.env`, shared by `make cluster`, `make
 * test-cluster` and `make bench-cluster`. Settings come from the environment, validated: a bad value
 * stops the command with a message naming the variable.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const port = z.coerce.number().int().min(1).max(65535);

const schema = z.object({
  /** Where everything lives: data folders, configuration, logs, `cluster.env`. */
  CLUSTER_DIR: z.string().min(1).default('./.cluster'),
  /** API server processes behind HAProxy. */
  CLUSTER_REPLICAS: z.coerce.number().int().min(1).max(16).default(3),
  /** HAProxy's port: the address to open. */
  CLUSTER_PORT: port.default(8080),
  /** The primary's port; the standby takes the next one. */
  CLUSTER_PG_PORT: port.default(55432),
  CLUSTER_PGBOUNCER_PORT: port.default(56432),
  /** Redis's port when the machine's (127.0.0.1:6379) does not answer and the cluster starts its own. */
  CLUSTER_REDIS_PORT: port.default(56379),
  /** The first replica's port; the others take the next ones. */
  CLUSTER_REPLICA_PORT: port.default(3101),
  /** `on`: a commit is acknowledged once the standby has it on disk (`synchronous_standby_names`). */
  CLUSTER_SYNC_REPLICATION: z.enum(['on', 'off']).default('on'),
});

export type ClusterSettings = z.infer<typeof schema> & { dir: string };

/** The settings from `env`; throws an Error naming every bad variable. */
export function clusterSettings(env: NodeJS.ProcessEnv = process.env): ClusterSettings {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Bad cluster setting:\n  ${lines.join('\n  ')}`);
  }
  return { ...parsed.data, dir: path.resolve(parsed.data.CLUSTER_DIR) };
}

/** The shell `KEY=value` lines `make cluster` writes, with what `make cluster-stop` needs. */
export interface ClusterEnv {
  LB_URL: string;
  PRIMARY_URL: string;
  STANDBY_URL: string;
  PGBOUNCER_URL: string;
  PRIMARY_PGDATA: string;
  STANDBY_PGDATA: string;
  /** Space-separated process ids of the API replicas, in the order of REPLICA_PORTS. */
  REPLICA_PIDS: string;
  REPLICA_PORTS: string;
  REDIS_URL: string;
  ADMIN_NICKNAME: string;
  ADMIN_PASSWORD: string;
  HAPROXY_PID: string;
  HAPROXY_SOCKET: string;
  PGBOUNCER_PID: string;
  /** The Redis the cluster started, or empty when it uses the machine's. */
  REDIS_PID: string;
}

/** The file of `dir`'s cluster. */
export function clusterEnvFile(dir: string): string {
  return path.join(dir, 'cluster.env');
}

/** Reads `cluster.env`, or null when there is none. */
export function readClusterEnv(dir: string): ClusterEnv | null {
  const file = clusterEnvFile(dir);
  if (!existsSync(file)) return null;
  const values: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line);
    if (m?.[1]) values[m[1]] = unquote(m[2] ?? '');
  }
  return values as unknown as ClusterEnv;
}

/** Writes `cluster.env`: one `KEY='value'` line each, quoted for a shell's `source`. */
export function writeClusterEnv(dir: string, env: ClusterEnv): void {
  const lines = Object.entries(env).map(([k, v]) => `${k}='${String(v).replaceAll("'", "'\\''")}'`);
  writeFileSync(clusterEnvFile(dir), `${lines.join('\n')}\n`, { mode: 0o600 });
}

function unquote(v: string): string {
  return v.startsWith("'") && v.endsWith("'") ? v.slice(1, -1).replaceAll("'\\''", "'") : v;
}

/** True when process `pid` is alive (signal 0). */
export function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The replica process ids of `env`, as numbers. */
export function replicaPids(env: ClusterEnv): number[] {
  return env.REPLICA_PIDS.split(' ').filter(Boolean).map(Number);
}

/** Polls `url` until it answers `status` (default 200), for at most `ms`; throws with the last answer. */
export async function waitFor(url: string, ms: number, status = 200): Promise<void> {
  const until = Date.now() + ms;
  let last = 'no answer';
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === status) return;
      last = `${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    if (Date.now() > until) throw new Error(`${url} did not answer ${status} within ${ms} ms (last: ${last})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const PG_BASE = '/usr/lib/postgresql';

/** The newest Debian PostgreSQL's version folder with server programs, or undefined. */
function newestPg(): string | undefined {
  if (!existsSync(PG_BASE)) return undefined;
  return readdirSync(PG_BASE)
    .filter((v) => existsSync(path.join(PG_BASE, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
}

/** True when Debian's PostgreSQL server programs are installed. */
export function hasPostgres(): boolean {
  return newestPg() !== undefined;
}

/** The folder of PostgreSQL's server programs (Debian's newest); throws when none is installed. */
export function pgBinDir(): string {
  const v = newestPg();
  if (!v) throw new Error(`PostgreSQL server programs not found under ${PG_BASE}`);
  return path.join(PG_BASE, v, 'bin');
}
