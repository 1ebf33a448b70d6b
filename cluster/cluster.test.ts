/**
 * `make test-cluster`: a cluster started by the test itself (`cluster/cluster.ts` on ports
 * of its own, under .cache/cluster-test), used through HAProxy under a 32-connection load of transfers and
 * orders whose client retries a failed request with the same Idempotency-Key. After each fault, every
 * acknowledged operation is in the ledger exactly once (each sender's balance is what it started with less
 * what was acknowledged) and the audit is clean. Last, `cluster-failover` after a crash of the primary, and
 * back.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCurrencyRequest } from '../bench/lib/api.ts';
import { alive, type ClusterEnv, clusterSettings, pgBinDir, readClusterEnv, replicaPids } from './cluster-env.ts';
import { haproxyFrontend5xx, haproxyServers } from './haproxy.ts';
import { type LoadWorker, startLoad } from './load.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const execFileAsync = promisify(execFile);
/** Shifts every port of the test cluster, so two checkouts on one machine can each run one. */
const OFFSET = Number(process.env.TEST_CLUSTER_PORT_OFFSET ?? 0);
const ENV = {
  ...process.env,
  CLUSTER_DIR: path.join(ROOT, '.cache', 'cluster-test'),
  CLUSTER_PORT: String(18080 + OFFSET),
  // Below Linux's ephemeral ports (32768-60999): a client's socket once held 56532 as the primary started.
  CLUSTER_PG_PORT: String(25532 + OFFSET),
  CLUSTER_PGBOUNCER_PORT: String(25632 + OFFSET),
  CLUSTER_REDIS_PORT: String(25679 + OFFSET),
  CLUSTER_REPLICA_PORT: String(3201 + OFFSET),
  CLUSTER_REPLICAS: '3',
  ADMIN_PASSWORD: 'Cluster-Test-Passw0rd!',
  // The test's admin signs in with a password alone.
  ADMIN_MFA: 'optional',
  // 33 sign-ups from one address in a run, and earlier runs' counters in the machine's Redis.
  RATE_LIMIT_AUTH: '100000',
  // No payment provider is set up: nothing may be sold (the launcher refuses an implicit sandbox).
  CHECKOUT_SANDBOX: 'off',
};
const settings = clusterSettings(ENV);
const PASSWORD = 'Str0ng!Passw0rd';
const START = 1_000_000;
const TRANSFER_WORKERS = 24;
const ORDER_WORKERS = 8;

/**
 * Runs `node cluster/cluster.ts <command>` without blocking this process (a blocked event loop would not
 * hear HAProxy close its idle keep-alive connections, and the next request would meet a closed socket).
 */
async function cluster(command: 'start' | 'stop' | 'restart' | 'failover'): Promise<void> {
  const { stdout } = await execFileAsync(process.execPath, [path.join(ROOT, 'cluster', 'cluster.ts'), command], {
    env: ENV,
  });
  process.stdout.write(stdout);
}

let env: ClusterEnv;
let lb: string;

async function api<T = Record<string, unknown>>(
  method: 'GET' | 'POST',
  url: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${lb}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'idempotency-key': randomUUID(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as T };
}

async function ok<T = Record<string, unknown>>(method: 'GET' | 'POST', url: string, token?: string, body?: unknown) {
  const res = await api<T>(method, url, token, body);
  expect(res.status, `${url}: ${JSON.stringify(res.json)}`).toBe(200);
  return res.json;
}

interface Member {
  nickname: string;
  token: string;
}

async function register(prefix: string): Promise<Member> {
  const nickname = `${prefix}${randomBytes(5).toString('hex')}`;
  const body = await ok<{ token: string }>('POST', '/api/user/register', undefined, {
    nickname,
    email: `${nickname}@cluster.test`,
    password: PASSWORD,
  });
  return { nickname, token: body.token };
}

async function newCurrency(admin: string): Promise<number> {
  const ticker = `C${randomBytes(3).toString('hex').toUpperCase()}`;
  const body = await ok<{ currency: { currencyId: number } }>(
    'POST',
    '/api/bank/createCurrency',
    admin,
    testCurrencyRequest(ticker, 0, 'Cluster'),
  );
  return body.currency.currencyId;
}

async function balance(m: Member, currencyId: number): Promise<string> {
  const me = await ok<{ user: { balances: Array<{ currencyId: number; amount: string }> } }>(
    'GET',
    '/api/user/me',
    m.token,
  );
  return me.user.balances.find((b) => b.currencyId === currencyId)?.amount ?? '0';
}

let admin: string;
let coin: number;
let base: number;
let pairId: string;
let sink: Member;
const senders: Member[] = [];
const sellers: Member[] = [];
let workers: LoadWorker[];
/** Operations acknowledged so far, per worker (transfers of 1 coin, sell orders of 1 base). */
let acked: number[];

/** Every acknowledged operation is in the ledger exactly once, and the audit is clean. */
async function expectExactlyOnce(): Promise<void> {
  const sent = acked.slice(0, TRANSFER_WORKERS);
  for (const [i, m] of senders.entries())
    expect(await balance(m, coin), m.nickname).toBe(String(START - (sent[i] ?? 0)));
  expect(await balance(sink, coin)).toBe(String(sent.reduce((a, b) => a + b, 0)));
  for (const [i, m] of sellers.entries()) {
    // Each resting sell order holds 1 base in escrow.
    expect(await balance(m, base), m.nickname).toBe(String(START - (acked[TRANSFER_WORKERS + i] ?? 0)));
  }
  const audit = await ok<{
    ok: boolean;
    currencies: Array<{ ticker: string; difference: string; negativeBalances: number }>;
  }>('GET', '/api/bank/audit?full=true', admin);
  for (const c of audit.currencies) {
    expect(c.difference, `${c.ticker} conservation`).toMatch(/^0(\.0+)?$/);
    expect(c.negativeBalances, `${c.ticker} negative balances`).toBe(0);
  }
  expect(audit.ok).toBe(true);
}

/** Runs the load for as long as `during` takes (plus `settleMs` on each side); adds what was acknowledged. */
async function underLoad(during: () => Promise<void>, settleMs = 1000) {
  const load = startLoad(lb, workers);
  let failure: unknown = null;
  try {
    await new Promise((r) => setTimeout(r, settleMs));
    await during();
    await new Promise((r) => setTimeout(r, settleMs));
  } catch (err) {
    failure = err;
  }
  const result = await load.stop();
  acked = acked.map((n, i) => n + (result.acked[i] ?? 0));
  if (failure) throw failure;
  return result;
}

beforeAll(async () => {
  // A clean cluster each run: stop one an interrupted run left up, drop its data.
  if (readClusterEnv(settings.dir)) await cluster('stop');
  rmSync(settings.dir, { recursive: true, force: true });
  await cluster('start');
  const e = readClusterEnv(settings.dir);
  if (!e) throw new Error('make cluster wrote no cluster.env');
  env = e;
  lb = `http://127.0.0.1:${settings.CLUSTER_PORT}`;

  admin = (
    await ok<{ token: string }>('POST', '/api/user/login', undefined, {
      nickOrEmail: env.ADMIN_NICKNAME,
      password: env.ADMIN_PASSWORD,
    })
  ).token;
  coin = await newCurrency(admin);
  base = await newCurrency(admin);
  const quote = await newCurrency(admin);
  pairId = (
    await ok<{ pair: { _id: string } }>('POST', '/api/cex/createPair', admin, {
      buyCurrency: base,
      sellCurrency: quote,
      canBuy: true,
      canSell: true,
    })
  ).pair._id;
  sink = await register('sink');
  for (let i = 0; i < TRANSFER_WORKERS; i++) senders.push(await register('snd'));
  for (let i = 0; i < ORDER_WORKERS; i++) sellers.push(await register('sel'));
  const mint = (to: Member, currencyId: number) =>
    ok('POST', '/api/bank/mint', admin, {
      recipientNickName: to.nickname,
      currencyId,
      amount: String(START),
      note: 'cluster test',
    });
  for (const m of senders) await mint(m, coin);
  for (const m of sellers) await mint(m, base);
  workers = [
    ...senders.map((m) => ({
      token: m.token,
      job: { kind: 'transfer' as const, to: sink.nickname, currencyId: coin, amount: '1' },
    })),
    ...sellers.map((m) => ({ token: m.token, job: { kind: 'order' as const, pair: pairId, price: '1000000' } })),
  ];
  acked = workers.map(() => 0);
});

afterAll(async () => {
  if (readClusterEnv(settings.dir)) await cluster('stop');
});

describe('the cluster through HAProxy', () => {
  it('spreads requests over every replica, and a socket on each replica (and one through HAProxy) sees a transfer made through the balancer', async () => {
    const instances = new Set<string>();
    for (let i = 0; i < 12; i++) instances.add((await ok<{ instance: string }>('GET', '/api/health')).instance);
    expect(instances.size).toBe(3);

    // One socket on each replica, and one through HAProxy (which passes the WebSocket upgrade on).
    const urls = [
      ...env.REPLICA_PORTS.split(' ').map((port) => `ws://127.0.0.1:${port}/api/ws`),
      `ws://127.0.0.1:${settings.CLUSTER_PORT}/api/ws`,
    ];
    const sockets = urls.map((url) => {
      const ws = new WebSocket(url);
      const seen: Array<{ type: string; balances?: Array<{ currencyId: number; amount: string }> }> = [];
      ws.addEventListener('message', (m) => seen.push(JSON.parse(String(m.data))));
      ws.addEventListener('open', () => ws.send(JSON.stringify({ type: 'auth', token: sink.token })));
      return { ws, seen };
    });
    const until = async (check: () => boolean, what: string) => {
      const end = Date.now() + 10_000;
      while (!check()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    for (const s of sockets) await until(() => s.seen.some((m) => m.type === 'balances'), 'the first balances');
    const sender = senders[0] as Member;
    await ok('POST', '/api/bank/p2pTransfer', sender.token, {
      recipientNickName: sink.nickname,
      currencyId: coin,
      amount: '1',
    });
    acked[0] = (acked[0] ?? 0) + 1;
    for (const s of sockets) {
      await until(
        () =>
          s.seen.some(
            (m) => m.type === 'balances' && m.balances?.some((b) => b.currencyId === coin && b.amount === '1'),
          ),
        'the transfer on every replica',
      );
      s.ws.close();
    }
  });

  it('reads reach the standby, and the replicas reach the primary through PgBouncer', async () => {
    await ok('POST', '/api/user/getUsers', admin, { paging: { limit: 10, page: 1 } });
    await ok('POST', '/api/bank/alltransactions', admin, { paging: { limit: 10, page: 1 } });
    await ok('POST', '/api/user/leaderboard', undefined, { currencyId: coin });
    const standby = new pg.Client({ connectionString: env.STANDBY_URL });
    await standby.connect();
    try {
      const res = await standby.query<{ n: number; recovery: boolean }>(
        `SELECT count(*)::int AS n, pg_is_in_recovery() AS recovery FROM pg_stat_activity
          WHERE datname = 'starlight' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      expect(res.rows[0]?.recovery).toBe(true);
      expect(res.rows[0]?.n).toBeGreaterThan(0);
    } finally {
      await standby.end();
    }
    const bouncer = new pg.Client({ connectionString: env.PGBOUNCER_URL.replace(/\/starlight$/, '/pgbouncer') });
    await bouncer.connect();
    try {
      const pools = await bouncer.query<{ database: string; cl_active: string; pool_mode: string }>('SHOW POOLS');
      const app = pools.rows.find((p) => p.database === 'starlight');
      expect(app?.pool_mode).toBe('transaction');
      expect(Number(app?.cl_active)).toBeGreaterThan(0);
    } finally {
      await bouncer.end();
    }
  });

  it('keeps every replica in the rotation under a 32-connection load: no check fails, no balancer 503', async () => {
    const downsBefore = await haproxyServers(env.HAPROXY_SOCKET);
    const errorsBefore = await haproxyFrontend5xx(env.HAPROXY_SOCKET);
    const result = await underLoad(() => new Promise((r) => setTimeout(r, 10_000)));
    const downsAfter = await haproxyServers(env.HAPROXY_SOCKET);
    const errors = (await haproxyFrontend5xx(env.HAPROXY_SOCKET)) - errorsBefore;
    const acks = result.acked.reduce((a, b) => a + b, 0);
    console.log(`no fault: ${acks} operations in ${result.ms} ms, retried ${JSON.stringify(result.retried)}`);
    expect(acks).toBeGreaterThan(100);
    expect(result.retried).toEqual({});
    expect(errors, 'HAProxy 5xx answers').toBe(0);
    for (const s of downsAfter) {
      expect(s.status, s.name).toMatch(/^UP/);
      expect(s.downs, `${s.name} taken out`).toBe(downsBefore.find((b) => b.name === s.name)?.downs);
    }
    await expectExactlyOnce();
  });

  it('sees the address of the connection, whatever X-Forwarded-For a client sends, through HAProxy or not', async () => {
    const member = await register('xff');
    const forged = { 'x-forwarded-for': '203.0.113.7', forwarded: 'for=203.0.113.8', 'x-real-ip': '203.0.113.9' };
    const login = async (base: string) => {
      const res = await fetch(`${base}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...forged },
        body: JSON.stringify({ nickOrEmail: member.nickname, password: PASSWORD }),
      });
      expect(res.status, await res.text()).toBe(200);
    };
    await login(lb);
    // A local process that reaches a replica's port directly is not HAProxy either.
    await login(`http://127.0.0.1:${env.REPLICA_PORTS.split(' ')[0]}`);
    const primary = new pg.Client({ connectionString: env.PRIMARY_URL });
    await primary.connect();
    try {
      const rows = await primary.query<{ address: string }>(
        `SELECT l.address FROM access_logs l JOIN users u ON u.id = l.user_id WHERE u.nickname = $1`,
        [member.nickname],
      );
      // The two sign-ins (and the sign-up's, if it logs one), each from the test's own address.
      const addresses = rows.rows.map((r) => r.address);
      expect(addresses.length).toBeGreaterThanOrEqual(2);
      expect(new Set(addresses)).toEqual(new Set(['127.0.0.1']));
    } finally {
      await primary.end();
    }
  });

  it('restarts every replica one at a time under load with no failed request', async () => {
    const before = replicaPids(env);
    const result = await underLoad(() => cluster('restart'));
    env = readClusterEnv(settings.dir) as ClusterEnv;
    const after = replicaPids(env);
    for (const pid of before) expect(after).not.toContain(pid);
    expect(after.every(alive)).toBe(true);
    expect(result.acked.reduce((a, b) => a + b, 0)).toBeGreaterThan(100);
    console.log(
      `rolling restart: ${result.acked.reduce((a, b) => a + b, 0)} operations acknowledged in ${result.ms} ms, retried ${JSON.stringify(result.retried)}`,
    );
    expect(result.retried).toEqual({});
    await expectExactlyOnce();
  });

  it('takes a killed replica out within 5 s; every acknowledged operation is in the ledger once', async () => {
    const victim = replicaPids(env)[1] as number;
    let outAfterMs = Number.POSITIVE_INFINITY;
    const result = await underLoad(async () => {
      const t0 = Date.now();
      process.kill(victim, 'SIGKILL');
      while (Date.now() - t0 < 10_000) {
        const servers = await haproxyServers(env.HAPROXY_SOCKET);
        if (servers.find((s) => s.name === 'replica2')?.status.startsWith('DOWN')) {
          outAfterMs = Date.now() - t0;
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 2000));
    });
    console.log(`kill -9: out of HAProxy's rotation after ${outAfterMs} ms, retried ${JSON.stringify(result.retried)}`);
    expect(outAfterMs).toBeLessThanOrEqual(5000);
    await expectExactlyOnce();
    // Back to three for what follows.
    await cluster('restart');
    env = readClusterEnv(settings.dir) as ClusterEnv;
  });

  it('rides out a fast restart of the primary: only 503s meanwhile, back within 15 s, nothing acknowledged lost', async () => {
    let backAfterMs = Number.POSITIVE_INFINITY;
    const sender = senders[0] as Member;
    const result = await underLoad(async () => {
      const t0 = Date.now();
      const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
      const [cmd, ...args] = [
        ...asPostgres,
        path.join(pgBinDir(), 'pg_ctl'),
        '-D',
        env.PRIMARY_PGDATA,
        // The server's log goes to its file: with none, the restarted server would hold this call's pipes.
        '-l',
        path.join(settings.dir, 'logs', 'primary.log'),
        '-m',
        'fast',
        '-w',
        'restart',
      ];
      await execFileAsync(cmd as string, args);
      // Back when a transfer through the balancer is acknowledged (sent again with its key until it is).
      const key = randomUUID();
      for (;;) {
        const res = await fetch(`${lb}/api/bank/p2pTransfer`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${sender.token}`,
            'idempotency-key': key,
          },
          body: JSON.stringify({ recipientNickName: sink.nickname, currencyId: coin, amount: '1' }),
        }).catch(() => null);
        if (res?.status === 200) break;
        if (Date.now() - t0 > 30_000) throw new Error('no transfer went through within 30 s of the restart');
        await new Promise((r) => setTimeout(r, 100));
      }
      acked[0] = (acked[0] ?? 0) + 1;
      backAfterMs = Date.now() - t0;
    });
    console.log(`primary restart: service back after ${backAfterMs} ms, retried ${JSON.stringify(result.retried)}`);
    expect(backAfterMs).toBeLessThanOrEqual(15_000);
    for (const status of Object.keys(result.retried)) expect(status, JSON.stringify(result.retried)).toBe('503');
    await expectExactlyOnce();
  });

  /**
   * Runs `cluster-failover` under load (after `fault`); checks the roles swapped, the new standby streams
   * synchronously, and every acknowledged operation is in the ledger exactly once.
   */
  async function failoverUnderLoad(what: string, fault: () => Promise<void>): Promise<void> {
    const was = { primary: env.PRIMARY_PGDATA, standby: env.STANDBY_PGDATA };
    let doneAfterMs = 0;
    const result = await underLoad(async () => {
      const t0 = Date.now();
      await fault();
      await cluster('failover');
      doneAfterMs = Date.now() - t0;
    });
    env = readClusterEnv(settings.dir) as ClusterEnv;
    console.log(
      `${what}: failed over in ${doneAfterMs} ms, ${result.acked.reduce((a, b) => a + b, 0)} operations acknowledged, retried ${JSON.stringify(result.retried)}`,
    );
    expect(env.PRIMARY_PGDATA).toBe(was.standby);
    expect(env.STANDBY_PGDATA).toBe(was.primary);
    const primary = new pg.Client({ connectionString: env.PRIMARY_URL });
    await primary.connect();
    try {
      const res = await primary.query<{ recovery: boolean; sync: string | null }>(
        `SELECT pg_is_in_recovery() AS recovery,
                (SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby') AS sync`,
      );
      expect(res.rows[0]?.recovery).toBe(false);
      expect(['sync', 'quorum']).toContain(res.rows[0]?.sync);
    } finally {
      await primary.end();
    }
    expect(result.acked.reduce((a, b) => a + b, 0)).toBeGreaterThan(50);
    await expectExactlyOnce();
  }

  it('fails over to the synchronous standby after a crash of the primary under load: nothing acknowledged lost or doubled', async () => {
    await failoverUnderLoad('primary crash', async () => {
      // An immediate stop is a crash for the data: no shutdown checkpoint, the WAL senders killed.
      const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
      const [cmd, ...args] = [
        ...asPostgres,
        path.join(pgBinDir(), 'pg_ctl'),
        '-D',
        env.PRIMARY_PGDATA,
        '-m',
        'immediate',
        '-w',
        'stop',
      ];
      await execFileAsync(cmd as string, args);
    });
  });

  it('fails back to the rewound former primary under load, with the event bus following', async () => {
    await failoverUnderLoad('fail back', async () => {});
    // The event bus reconnected through PgBouncer to the new primary: a socket sees a transfer.
    const ws = new WebSocket(`ws://127.0.0.1:${settings.CLUSTER_PORT}/api/ws`);
    const seen: Array<{ type: string; balances?: Array<{ currencyId: number; amount: string }> }> = [];
    ws.addEventListener('message', (m) => seen.push(JSON.parse(String(m.data))));
    ws.addEventListener('open', () => ws.send(JSON.stringify({ type: 'auth', token: sink.token })));
    const until = async (check: () => boolean, what: string) => {
      const end = Date.now() + 15_000;
      while (!check()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      await until(() => seen.some((m) => m.type === 'balances'), 'the first balances');
      const before = await balance(sink, coin);
      await ok('POST', '/api/bank/p2pTransfer', (senders[1] as Member).token, {
        recipientNickName: sink.nickname,
        currencyId: coin,
        amount: '1',
      });
      acked[1] = (acked[1] ?? 0) + 1;
      const after = String(BigInt(before) + 1n);
      await until(
        () =>
          seen.some(
            (m) => m.type === 'balances' && m.balances?.some((b) => b.currencyId === coin && b.amount === after),
          ),
        'the transfer after the failover',
      );
    } finally {
      ws.close();
    }
    await expectExactlyOnce();
  });
});
