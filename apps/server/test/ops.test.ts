/**
 * Production basics (DESIGN §9): metrics, static assets, one log line per request, SIGTERM
 * draining, and two server processes on one database sharing Redis and the live feed.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createMarket, fundedMember, placeOk } from './exchange.helpers.ts';
import { call, makeApp, mint, PASSWORD, registerMember, uniqueNick, useTestApp } from './helpers.ts';
import { LiveSocket } from './live-socket.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';
import { ADMIN_URL, TEST_ADMIN, testDatabaseUrl } from './test-db.ts';

const t = useTestApp();

/** The value of one sample of the Prometheus text `metrics` (0 when absent). */
function sample(metrics: string, name: string, labels = ''): number {
  const line = metrics.split('\n').find((l) => l.startsWith(`${name}${labels} `) || l === `${name}${labels}`);
  return line ? Number(line.split(' ').at(-1)) : 0;
}

async function scrape(): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/api/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  return res.body;
}

describe('GET /api/metrics', () => {
  it('counts requests per route and status, ledger postings and matching time', async () => {
    const before = await scrape();
    const a = await registerMember(t.app, 'met');
    const b = await registerMember(t.app, 'met');
    await mint(t.app, t.admin, a.nickname, 2, '10');
    const sent = await call(t.app, a.token, 'POST', '/api/bank/p2pTransfer', {
      recipientNickName: b.nickname,
      currencyId: 2,
      amount: '1',
    });
    expect(sent.statusCode).toBe(200);
    const m = await createMarket(t.app, t.admin);
    const seller = await fundedMember(t.app, t.admin, { [m.base.currencyId]: '5' });
    await placeOk(t.app, seller, m.pair._id, false, '1', '2');
    const after = await scrape();

    const transfers = '{method="POST",route="/api/bank/p2pTransfer",status="200"}';
    const count = 'starlight_http_request_duration_seconds_count';
    expect(sample(after, count, transfers) - sample(before, count, transfers)).toBe(1);
    // Mint, transfer, the funding mint and the order: four postings, at least one row each.
    expect(
      sample(after, 'starlight_ledger_postings_total') - sample(before, 'starlight_ledger_postings_total'),
    ).toBeGreaterThanOrEqual(4);
    expect(
      sample(after, 'starlight_ledger_rows_total') - sample(before, 'starlight_ledger_rows_total'),
    ).toBeGreaterThanOrEqual(4);
    expect(
      sample(after, 'starlight_matching_seconds_count') - sample(before, 'starlight_matching_seconds_count'),
    ).toBeGreaterThanOrEqual(1);
    expect(after).toMatch(/^starlight_db_pool_connections\{state="total"\} \d+$/m);
    expect(after).toMatch(/^starlight_websocket_clients \d+$/m);
  });
});

describe('static assets of the web app', () => {
  // The build in `outer/dist`, beside a file it must never serve.
  const outer = mkdtempSync(path.join(tmpdir(), 'starlight-dist-'));
  const dist = path.join(outer, 'dist');
  mkdirSync(dist);
  writeFileSync(path.join(outer, 'secret.txt'), 'TOP SECRET');
  afterAll(() => rmSync(outer, { recursive: true, force: true }));

  it('serves hashed assets compressed and immutable, index.html never cached', async () => {
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Starlight</title>');
    const js = `export const app = '${'starlight '.repeat(500)}';`;
    writeFileSync(path.join(dist, 'assets', 'app-Ab12Cd34.js'), js);
    writeFileSync(path.join(dist, 'assets', 'app-Ab12Cd34.js.gz'), gzipSync(js));
    const web = await makeApp({ WEB_DIST: dist });
    try {
      const asset = await web.app.inject({
        method: 'GET',
        url: '/assets/app-Ab12Cd34.js',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['content-encoding']).toBe('gzip');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.rawPayload.length).toBeLessThan(js.length / 10);

      const plain = await web.app.inject({ method: 'GET', url: '/assets/app-Ab12Cd34.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(js);

      // Every client route gets the SPA, a folder of the build too (no listing, no 403).
      for (const url of ['/', '/dashboard', '/index.html', '/bank/history?page=2', '/assets', '/assets/']) {
        const page = await web.app.inject({ method: 'GET', url });
        expect(page.statusCode, url).toBe(200);
        expect(page.headers['cache-control'], url).toBe('no-cache');
        expect(page.body).toContain('<title>Starlight</title>');
      }
      // Nothing outside the build is served, however the path is spelled.
      for (const url of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt']) {
        const outside = await web.app.inject({ method: 'GET', url });
        expect(outside.body, url).not.toContain('TOP SECRET');
      }
      const api = await web.app.inject({ method: 'GET', url: '/api/nothing-here' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toEqual({ message: 'Not found' });
    } finally {
      await web.app.close();
    }
  });
});

/** A new, empty database on the test PostgreSQL (migrated by the first server started on it); `drop` removes it. */
async function emptyDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  return {
    url: testDatabaseUrl(name),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

describe('a server process', () => {
  const started: ServerProcess[] = [];
  const start = async (env: Record<string, string> = {}, cwd?: string) => {
    const p = await startServerProcess(env, cwd);
    started.push(p);
    return p;
  };
  afterAll(() => {
    for (const p of started) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  });

  it('logs one line per request at info: method, route, status and time', async () => {
    const p = await start({ DRAIN_DELAY_MS: '0' });
    await fetch(`${p.url}/api/health`);
    await fetch(`${p.url}/api/cex/getPairs`);
    await fetch(`${p.url}/api/user/me`);
    // Lines leave in buffered writes (app.ts): on a quiet server within LOG_FLUSH_MS, a second.
    const readLines = () =>
      p
        .output()
        .split('\n')
        .slice(0, -1) // complete lines only
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    for (let waited = 0; readLines().filter((l) => l.msg === 'request').length < 4 && waited < 3000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const lines = readLines();
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.map((l) => [l.method, l.route, l.status])).toEqual([
      ['GET', '/api/health', 200],
      ['GET', '/api/health', 200],
      ['GET', '/api/cex/getPairs', 200],
      ['GET', '/api/user/me', 401],
    ]);
    for (const l of requests) expect(typeof l.ms).toBe('number');
    expect(lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toEqual([]);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    // The last lines, held in the buffer a moment before the exit, are written by it.
    expect(readLines().map((l) => l.msg)).toContain('shutting down');
  });

  it('runs from its bundle in any working folder: migrates a new database, serves the web app, the API and its docs', async () => {
    const database = await emptyDatabase(`starlight_bundle_${process.pid}`);
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'starlight-cwd-'));
    try {
      const p = await start({ DATABASE_URL: database.url, DRAIN_DELAY_MS: '0', DATA_DIR: elsewhere }, elsewhere);
      // The process runs the bundle make build writes, not the sources.
      expect(readFileSync(`/proc/${p.child.pid}/cmdline`, 'utf8').split('\0')).toContain(
        path.resolve('apps/server/dist/server.js'),
      );
      const page = await fetch(`${p.url}/bank`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>Starlight</title>');
      const pairs = await fetch(`${p.url}/api/cex/getPairs`);
      expect(pairs.status).toBe(200);
      // Swagger UI, bundled, finds its pages in its package: the page, its script and the document.
      const docs = await fetch(`${p.url}/api/docs/`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('swagger-ui-bundle.js');
      const script = await fetch(`${p.url}/api/docs/static/swagger-ui-bundle.js`);
      expect(script.status).toBe(200);
      expect((await script.text()).length).toBeGreaterThan(100_000);
      const document = await fetch(`${p.url}/api/docs/json`);
      expect(((await document.json()) as { openapi: string }).openapi).toMatch(/^3\./);
      // Every migration ran on the new database: the admin the first start seeds signs in.
      const login = await fetch(`${p.url}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ nickOrEmail: TEST_ADMIN.nickname, password: TEST_ADMIN.password }),
      });
      expect(login.status).toBe(200);
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
      await database.drop();
    }
  });

  it('stops with no background job failing: the jobs end their ticks before the database closes', async () => {
    // A database of its own, so the lock below blocks nobody else: migrated by a first start.
    const database = await emptyDatabase(`starlight_stop_${process.pid}`);
    const env = { DATABASE_URL: database.url, DRAIN_DELAY_MS: '0' };
    const first = await start(env);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // The background jobs' first ticks (the audit check, the ledger rollup) read ledger_rollup_state:
    // with it locked they are in flight when the stop comes, and go on once it is released.
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE ledger_rollup_state IN ACCESS EXCLUSIVE MODE');
    const p = await start(env);
    p.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    await holder.query('COMMIT');
    await holder.end();
    expect(await p.exited).toBe(0);
    const failed = p
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.level === 50);
    expect(failed).toEqual([]);
    await database.drop();
  });

  it('drains on SIGTERM: refuses new connections, finishes the request in flight, closes sockets, exits 0', async () => {
    const p = await start();
    const member = await fetch(`${p.url}/api/user/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        nickname: uniqueNick('drain'),
        email: `${uniqueNick('d')}@example.test`,
        password: PASSWORD,
      }),
    });
    expect(member.status).toBe(200);
    const ws = await LiveSocket.openUrl(`ws://127.0.0.1:${p.port}/api/ws`);

    // A sign-in whose body is still on its way when the signal comes.
    const body = JSON.stringify({ nickOrEmail: 'nobody-here', password: 'Wr0ng!Password' });
    const socket = connect(p.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let answer = '';
    socket.on('data', (d: Buffer) => {
      answer += d.toString('utf8');
    });
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      `POST /api/user/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((r) => setTimeout(r, 300));
    p.child.kill('SIGTERM');

    await ws.until(() => ws.closeCode !== null);
    await new Promise((r) => setTimeout(r, 300));
    await expect(fetch(`${p.url}/api/health`)).rejects.toThrow();
    socket.write(body.slice(10));
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer).toContain('Incorrect password');
    expect(await p.exited).toBe(0);
  });

  it('shares the sign-in budget through Redis and the live feed through PostgreSQL with another process', async () => {
    const env = { REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMIT_AUTH: '3', TRUST_PROXY: '127.0.0.1' };
    const a = await start(env);
    const b = await start(env);
    // A fresh client address for this run, so earlier runs' counters in Redis do not count.
    const client = `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
    const registerVia = (p: ServerProcess) => {
      const nickname = uniqueNick('two');
      return fetch(`${p.url}/api/user/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
        body: JSON.stringify({ nickname, email: `${nickname}@example.test`, password: PASSWORD }),
      });
    };
    const answers = [await registerVia(a), await registerVia(b), await registerVia(a), await registerVia(b)];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    const [alice, bob] = (await Promise.all(answers.slice(0, 2).map((r) => r.json()))) as Array<{
      user: { nickname: string };
      token: string;
    }>;

    // Bob watches on B; the admin mints to Alice and Alice pays Bob through A.
    const watch = await LiveSocket.openUrl(`ws://127.0.0.1:${b.port}/api/ws`);
    watch.send({ type: 'auth', token: bob?.token });
    await watch.until((ms) => ms.some((x) => x.type === 'balances'));
    const post = (p: ServerProcess, url: string, token: string, payload: unknown) =>
      fetch(`${p.url}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(payload),
      });
    const adminToken = t.admin.token;
    expect(
      (
        await post(a, '/api/bank/mint', adminToken, {
          recipientNickName: alice?.user.nickname,
          currencyId: 2,
          amount: '3',
          note: 'two processes',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await post(a, '/api/bank/p2pTransfer', alice?.token ?? '', {
          recipientNickName: bob?.user.nickname,
          currencyId: 2,
          amount: '2',
        })
      ).status,
    ).toBe(200);
    await watch.until((ms) =>
      ms.some((x) => x.type === 'balances' && x.balances.some((bal) => bal.currencyId === 2 && bal.amount === '2.00')),
    );
    watch.close();
  });
});
