/**
 * The process helpers of the cluster's commands (`cluster.ts`, `pg-nodes.ts`, `failover.ts`): running a
 * program (as `postgres` when we are root), files for `postgres`, pid files, stopping by process id.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { alive } from './cluster-env.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const DB_NAME = 'starlight';
export const IS_ROOT = process.getuid?.() === 0;

/** Runs a command, its output shown; throws when it fails. As `postgres` when asked and we are root. */
export function run(cmd: string, args: string[], opts: { asPostgres?: boolean; quiet?: boolean } = {}): string {
  const [c, a] = opts.asPostgres && IS_ROOT ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  return execFileSync(c, a, { encoding: 'utf8', stdio: ['ignore', 'pipe', opts.quiet ? 'pipe' : 'inherit'] });
}

/** True when `cmd` is on the PATH. */
export function has(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `deploy/<name>` with every `${KEY}` replaced; throws on a key without a value. */
export function render(name: string, values: Record<string, string | number>): string {
  return readFileSync(path.join(ROOT, 'deploy', name), 'utf8').replace(/\$\{([A-Z_]+)\}/g, (_, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`deploy/${name}: no value for \${${key}}`);
    return String(v);
  });
}

/** Gives `postgres` a file or folder, when we are root (PostgreSQL and PgBouncer refuse to run as root). */
export function chownToPostgres(file: string): void {
  if (!IS_ROOT) return;
  const uid = Number(run('id', ['-u', 'postgres'], { quiet: true }).trim());
  const gid = Number(run('id', ['-g', 'postgres'], { quiet: true }).trim());
  chownSync(file, uid, gid);
}

/** Makes folder `dir` (if missing) for `postgres` alone, and lets `postgres` walk down to it. */
export function ownedByPostgres(dir: string): void {
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
export function pidOf(file: string): number {
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

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Sends `signal` to `pid` and waits until it is gone (SIGKILL after `ms`). */
export async function stopPid(pid: number, signal: NodeJS.Signals, ms = 20_000): Promise<void> {
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
