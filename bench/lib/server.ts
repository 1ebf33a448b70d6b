/**
 * The Starlight server as a child process (its own event loop, not the load generator's), on a
 * PostgreSQL database of its own. Resolves once /api/health answers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export interface ServerOptions {
  /** The repository root (holds apps/server). */
  root: string;
  databaseUrl: string;
  adminNickname: string;
  adminPassword: string;
  /** Extra environment, e.g. DB_POOL_SIZE or LOG_LEVEL (unset: the server's default level, as users run it). */
  env?: Record<string, string>;
  /** Extra node flags for the server, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** How long to wait for /api/health (default 60 s; migrations on a seeded database take longer). */
  readyTimeoutS?: number;
  /** How often /api/health is asked while the server starts (default 200 ms; the start-up case asks every 5). */
  pollMs?: number;
}

/** The bench server's JWT secret: a bench may sign a session for a seeded admin whose password it does not know. */
export const BENCH_JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';

export interface ServerHandle {
  url: string;
  pid: number;
  /** Milliseconds from spawning `node` to the first healthy answer (within `pollMs`). */
  readyMs: number;
  /** Recent output of the server, for error reports. */
  output(): string;
  stop(): Promise<void>;
}

/** A TCP port that is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** The node flags the server runs with (`make start` passes the same file's flags). */
function serverNodeFlags(root: string): string[] {
  return readFileSync(path.join(root, 'apps/server/node-flags'), 'utf8').split(/\s+/).filter(Boolean);
}

/** Starts `node <apps/server/node-flags> apps/server/dist/server.js` and waits (up to `readyTimeoutS`, 60 s) until it is healthy. */
export async function startServer(opts: ServerOptions): Promise<ServerHandle> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const spawnedAt = performance.now();
  const child = spawn(
    process.execPath,
    [...serverNodeFlags(opts.root), ...(opts.nodeArgs ?? []), path.join(opts.root, 'apps/server/dist/server.js')],
    {
      cwd: opts.root,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: opts.databaseUrl,
        DATA_DIR: path.join(opts.root, '.cache/bench-data'),
        JWT_SECRET: BENCH_JWT_SECRET,
        ADMIN_NICKNAME: opts.adminNickname,
        ADMIN_EMAIL: `${opts.adminNickname}@bench.example.com`,
        ADMIN_PASSWORD: opts.adminPassword,
        // The bench's admin signs in with a password alone.
        ADMIN_MFA: 'optional',
        RATE_LIMIT_AUTH: '1000000',
        RATE_LIMIT_LOGIN_FAILURES: '1000000',
        // The chips case buys tens of thousands of synth chips up front (the default sale holds 10,000).
        CHIP_SUPPLY: '10000000',
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const handle: ServerHandle = {
    url,
    pid: child.pid ?? 0,
    readyMs: 0,
    output: () => tail,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited(child);
      clearTimeout(timer);
    },
  };

  const readyS = opts.readyTimeoutS ?? 60;
  const deadline = Date.now() + readyS * 1000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}:\n${tail}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) {
        handle.readyMs = Math.round(performance.now() - spawnedAt);
        return handle;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await handle.stop();
      throw new Error(`The server did not become healthy in ${readyS} s:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 200));
  }
}
