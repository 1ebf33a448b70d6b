/**
 * Where the CPU went during a measurement (Linux /proc): the server process, PostgreSQL (its shared
 * background processes and the backends of the measured database, not other databases'), this load
 * generator, everything else (`other`: a busy neighbour spoils the figures), and the whole machine.
 * Percent of one core (2 cores = 200).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface CpuSplit {
  server: number;
  postgres: number;
  loadgen: number;
  other: number;
  machine: number;
  cores: number;
}

interface Snapshot {
  at: bigint;
  server: number;
  postgres: Map<number, number>;
  self: number;
  machineBusy: number;
  machineAll: number;
}

let ticksPerSecond = 100;
try {
  ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
} catch {
  // keep 100, the Linux default
}

/**
 * utime + stime of a process (all its threads), in clock ticks; 0 when it is gone. With
 * `children`, also the time of its children that have exited (pgbench run by this process).
 */
function processTicks(pid: number | 'self', children = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    return (f[11] ?? 0) + (f[12] ?? 0) + (children ? (f[13] ?? 0) + (f[14] ?? 0) : 0);
  } catch {
    return 0;
  }
}

/** A backend's title is `postgres: <cluster>: <user> <database> <host>(<port>) <state>`. */
const backendTitle = /^postgres: (?:[^:]+: )?\S+ (\S+) (?:\[local\]|[\d.:a-f]+\(\d+\))/;

/**
 * CPU ticks of PostgreSQL's processes, except backends of databases other than `database`.
 * `seen` caches which pids count (a backend's database never changes).
 */
function postgresTicks(database: string, seen: Map<number, boolean>): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    let counts = seen.get(pid);
    if (counts === undefined) {
      try {
        const title = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
        const isPostgres = readFileSync(`/proc/${name}/comm`, 'utf8').trim() === 'postgres';
        const db = backendTitle.exec(title)?.[1];
        counts = isPostgres && (db === undefined || db === database);
      } catch {
        continue;
      }
      seen.set(pid, counts);
    }
    if (counts) out.set(pid, processTicks(pid));
  }
  return out;
}

function machineTicks(): { busy: number; all: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const all = v.reduce((a, b) => a + b, 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  return { busy: all - idle, all };
}

function snapshot(serverPid: number, database: string, seen: Map<number, boolean>): Snapshot {
  const m = machineTicks();
  return {
    at: process.hrtime.bigint(),
    server: processTicks(serverPid),
    postgres: postgresTicks(database, seen),
    self: processTicks('self', true),
    machineBusy: m.busy,
    machineAll: m.all,
  };
}

/**
 * Starts measuring the server `serverPid` (0: none) on `database`; the returned function stops and
 * returns the split, or null off Linux. `loadgen` is this process and its exited children (pgbench).
 * PostgreSQL processes are sampled every half second, so backends that exit before the end (pgbench
 * disconnecting) still count up to their last sample.
 */
export function measureCpu(serverPid: number, database: string): () => CpuSplit | null {
  const seen = new Map<number, boolean>();
  let start: Snapshot;
  try {
    start = snapshot(serverPid, database, seen);
  } catch {
    return () => null;
  }
  const last = new Map(start.postgres);
  const sample = () => {
    for (const [pid, ticks] of postgresTicks(database, seen)) last.set(pid, ticks);
  };
  const timer = setInterval(sample, 500);
  return () => {
    clearInterval(timer);
    const end = snapshot(serverPid, database, seen);
    for (const [pid, ticks] of end.postgres) last.set(pid, ticks);
    const seconds = Number(end.at - start.at) / 1e9;
    const pct = (ticks: number) => Math.round((ticks / ticksPerSecond / seconds) * 1000) / 10;
    let pg = 0;
    for (const [pid, ticks] of last) pg += ticks - (start.postgres.get(pid) ?? 0);
    const cores = Math.round((end.machineAll - start.machineAll) / ticksPerSecond / seconds) || 1;
    const server = pct(end.server - start.server);
    const postgres = pct(pg);
    const loadgen = pct(end.self - start.self);
    const machine =
      Math.round(((end.machineBusy - start.machineBusy) / (end.machineAll - start.machineAll)) * cores * 1000) / 10;
    const other = Math.max(0, Math.round((machine - server - postgres - loadgen) * 10) / 10);
    return { server, postgres, loadgen, other, machine, cores };
  };
}
