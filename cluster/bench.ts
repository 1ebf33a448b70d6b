/**
 * `make bench-cluster`: transfers and the main reads through HAProxy on a cluster of 1 and
 * of 3 replicas (`cluster/cluster.ts`, under .cache/cluster-bench on ports of its own), 32 connections,
 * with the CPU each part spent per request: the replicas, the primary, the standby, PgBouncer, HAProxy.
 * On a 2-core machine three replicas cannot serve more than one: the figures show what the cluster
 * costs, not how it scales. The 3-replica cluster runs twice: with synchronous replication (the
 * default) and without (`_async` cases), to show what waiting for the standby costs.
 * Results: bench/results/cluster.json, and a table on the console. TEST_CLUSTER_PORT_OFFSET shifts its ports.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { api, mapLimit, testCurrencyRequest } from '../bench/lib/api.ts';
import { runLoad } from '../bench/lib/load.ts';
import { record, round } from '../bench/lib/results.ts';
import { type ClusterEnv, clusterSettings, readClusterEnv, replicaPids } from './cluster-env.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const execFileAsync = promisify(execFile);
const DURATION_S = Number(process.env.BENCH_CLUSTER_SECONDS ?? 10);
const CONNECTIONS = 32;
const TICKS = 100; // Linux's USER_HZ

const OFFSET = Number(process.env.TEST_CLUSTER_PORT_OFFSET ?? 0);
const baseEnv = {
  ...process.env,
  CLUSTER_DIR: path.join(ROOT, '.cache', 'cluster-bench'),
  CLUSTER_PORT: String(28080 + OFFSET),
  CLUSTER_PG_PORT: String(56732 + OFFSET),
  CLUSTER_PGBOUNCER_PORT: String(56832 + OFFSET),
  CLUSTER_REDIS_PORT: String(56879 + OFFSET),
  CLUSTER_REPLICA_PORT: String(3301 + OFFSET),
  ADMIN_PASSWORD: 'Cluster-Bench-Passw0rd!',
  // The bench's admin signs in with a password alone.
  ADMIN_MFA: 'optional',
  RATE_LIMIT_AUTH: '100000',
  // No payment provider is set up: nothing may be sold (the launcher refuses an implicit sandbox).
  CHECKOUT_SANDBOX: 'off',
};

/** Synchronous replication on (the cluster's default) or off. */
type Sync = 'on' | 'off';

async function cluster(command: 'start' | 'stop', replicas: number, sync: Sync): Promise<void> {
  await execFileAsync(process.execPath, [path.join(ROOT, 'cluster', 'cluster.ts'), command], {
    env: { ...baseEnv, CLUSTER_REPLICAS: String(replicas), CLUSTER_SYNC_REPLICATION: sync },
  });
}

/** utime + stime of a process in clock ticks (0 when it is gone), and its parent's pid. */
function stat(pid: number): { ticks: number; ppid: number } {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s
      .slice(s.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    return { ticks: (f[11] ?? 0) + (f[12] ?? 0), ppid: f[1] ?? 0 };
  } catch {
    return { ticks: 0, ppid: 0 };
  }
}

/** A PostgreSQL server's postmaster and every process it started (backends, WAL sender, writers). */
function serverProcesses(pgdata: string): number[] {
  const postmaster = Number(readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => stat(pid).ppid === postmaster);
  return [postmaster, ...children];
}

type Part = 'replicas' | 'primary' | 'standby' | 'pgbouncer' | 'haproxy';

/** The CPU ticks of each part of the cluster now. */
function cpuNow(env: ClusterEnv): Record<Part, number> {
  const sum = (pids: number[]) => pids.reduce((a, pid) => a + stat(pid).ticks, 0);
  return {
    replicas: sum(replicaPids(env)),
    primary: sum(serverProcesses(env.PRIMARY_PGDATA)),
    standby: sum(serverProcesses(env.STANDBY_PGDATA)),
    pgbouncer: sum([Number(env.PGBOUNCER_PID)]),
    haproxy: sum([Number(env.HAPROXY_PID)]),
  };
}

interface Case {
  name: string;
  request: (n: number) => { method: string; path: string; headers: Record<string, string>; body?: string };
}

async function measure(replicas: number, sync: Sync): Promise<void> {
  const settings = clusterSettings(baseEnv);
  await cluster('stop', replicas, sync).catch(() => {});
  rmSync(settings.dir, { recursive: true, force: true });
  await cluster('start', replicas, sync);
  const env = readClusterEnv(settings.dir) as ClusterEnv;
  const lb = `http://127.0.0.1:${settings.CLUSTER_PORT}`;
  try {
    const client = api(lb);
    const admin = (
      await client.post<{ token: string }>('/api/user/login', {
        nickOrEmail: env.ADMIN_NICKNAME,
        password: env.ADMIN_PASSWORD,
      })
    ).token;
    const ticker = `B${randomBytes(3).toString('hex').toUpperCase()}`;
    const coin = (
      await client.post<{ currency: { currencyId: number } }>(
        '/api/bank/createCurrency',
        testCurrencyRequest(ticker, 2, 'Bench'),
        admin,
      )
    ).currency.currencyId;
    const members = await mapLimit(
      Array.from({ length: CONNECTIONS + 1 }, (_, i) => `cb${randomBytes(4).toString('hex')}${i}`),
      4,
      async (nickname) => {
        const res = await client.post<{ token: string }>('/api/user/register', {
          nickname,
          email: `${nickname}@bench.example.com`,
          password: 'Bench-member-9!',
        });
        await client.post(
          '/api/bank/mint',
          { recipientNickName: nickname, currencyId: coin, amount: '1000000', note: 'cluster bench' },
          admin,
        );
        return { nickname, token: res.token };
      },
    );
    const sink = members.pop() as { nickname: string; token: string };
    const json = { 'content-type': 'application/json' };
    const cases: Case[] = [
      {
        name: 'transfers',
        request: (n) => {
          const m = members[n % members.length] as { token: string };
          return {
            method: 'POST',
            path: '/api/bank/p2pTransfer',
            headers: { ...json, authorization: `Bearer ${m.token}` },
            body: JSON.stringify({ recipientNickName: sink.nickname, currencyId: coin, amount: '0.01' }),
          };
        },
      },
      {
        name: 'leaderboard',
        request: () => ({
          method: 'POST',
          path: '/api/user/leaderboard',
          headers: json,
          body: JSON.stringify({ currencyId: coin }),
        }),
      },
      {
        name: 'member_me',
        request: (n) => ({
          method: 'GET',
          path: '/api/user/me',
          headers: { authorization: `Bearer ${(members[n % members.length] as { token: string }).token}` },
        }),
      },
      {
        name: 'admin_users',
        request: () => ({
          method: 'POST',
          path: '/api/user/getUsers',
          headers: { ...json, authorization: `Bearer ${admin}` },
          body: JSON.stringify({ paging: { limit: 10, page: 1 } }),
        }),
      },
    ];
    // Without synchronous replication only the writes differ.
    for (const c of sync === 'on' ? cases : cases.slice(0, 1)) {
      const before = cpuNow(env);
      const result = await runLoad({ url: lb, connections: CONNECTIONS, durationS: DURATION_S, request: c.request });
      const after = cpuNow(env);
      const perRequestUs = (part: Part) =>
        result.ok > 0 ? round((((after[part] - before[part]) / TICKS) * 1e6) / result.ok, 0) : null;
      record(path.join(ROOT, 'bench', 'results'), {
        case: `cluster_${c.name}_${replicas}r${sync === 'on' ? '' : '_async'}`,
        replicas,
        synchronous_replication: sync === 'on',
        requests_per_s: round(result.okPerSecond, 0),
        p50_ms: round(result.p50Ms, 1),
        p99_ms: round(result.p99Ms, 1),
        non2xx: result.non2xx,
        errors: result.errors,
        cpu_us_per_request: {
          replicas: perRequestUs('replicas'),
          primary: perRequestUs('primary'),
          standby: perRequestUs('standby'),
          pgbouncer: perRequestUs('pgbouncer'),
          haproxy: perRequestUs('haproxy'),
        },
      });
    }
  } finally {
    await cluster('stop', replicas, sync);
  }
}

await measure(1, 'on');
await measure(3, 'on');
await measure(3, 'off');
