/**
 * A replica among several: health names the instance, readiness leaves the load balancer
 * before the server stops, and a lost database answers 503 with a clear message (never a 500, never a
 * request hanging past 10 s), then the server recovers by itself when the database is back.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { isDatabaseUnavailable } from '../src/db/errors.ts';
import { UNAVAILABLE_MESSAGE } from '../src/http/errors.ts';
import { balanceOf, eventually, expectLedgerBalanced, mint, registerMember, useTestApp } from './helpers.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';
import { ADMIN_URL, testDatabaseUrl } from './test-db.ts';

const t = useTestApp();

/** A request that fails the test rather than wait past 10 s (no request may hang longer). */
function within10s(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
}

function post(p: ServerProcess, path: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  return within10s(`${p.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });
}

describe('a replica', () => {
  const started: ServerProcess[] = [];
  let proxy: TcpProxy | undefined;
  afterAll(async () => {
    for (const p of started) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await proxy?.close();
  });

  it('names itself in /api/health and leaves readiness at SIGTERM while it still serves for DRAIN_DELAY_MS', async () => {
    const p = await startServerProcess({ DRAIN_DELAY_MS: '3000' });
    started.push(p);
    const health = await within10s(`${p.url}/api/health`);
    expect(health.status).toBe(200);
    const { status, instance } = (await health.json()) as { status: string; instance: string };
    expect(status).toBe('ok');
    expect(instance).toMatch(new RegExp(`^.+/${p.child.pid}$`));
    const ready = await within10s(`${p.url}/api/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', instance });

    p.child.kill('SIGTERM');
    const draining = await eventually(
      () => within10s(`${p.url}/api/ready`),
      (r) => r.status === 503,
    );
    expect(draining.status).toBe(503);
    expect(await draining.json()).toEqual({ message: 'This server is shutting down' });
    // Still serving while the balancer takes it out.
    expect((await within10s(`${p.url}/api/health`)).status).toBe(200);
    expect((await within10s(`${p.url}/api/cex/getPairs`)).status).toBe(200);
    expect(await p.exited).toBe(0);
  });

  it('answers 503 within 10 s while its database is down or silent, and recovers without a restart', async () => {
    const target = new URL(ADMIN_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(testDatabaseUrl());
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const p = await startServerProcess({ DATABASE_URL: viaProxy.toString() });
    started.push(p);

    const alice = await registerMember(t.app, 'fo');
    const bob = await registerMember(t.app, 'fo');
    await mint(t.app, t.admin, alice.nickname, 2, '10');
    const send = (key: string) =>
      post(
        p,
        '/api/bank/p2pTransfer',
        alice.token,
        { recipientNickName: bob.nickname, currencyId: 2, amount: '1' },
        {
          'idempotency-key': key,
        },
      );
    expect((await send(randomUUID())).status).toBe(200);

    // Down: every connection dropped, new ones refused.
    proxy.set('refuse');
    const whileDown = randomUUID();
    // Readiness follows its probe: down within a probe or two.
    const notReady = await eventually(
      () => within10s(`${p.url}/api/ready`),
      (r) => r.status === 503,
    );
    for (const res of [
      notReady,
      await send(whileDown),
      await within10s(`${p.url}/api/user/me`, { headers: { authorization: `Bearer ${alice.token}` } }),
      await post(p, '/api/user/leaderboard', alice.token, { currencyId: 2 }),
    ]) {
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ message: UNAVAILABLE_MESSAGE });
    }

    // Silent: connections accepted but never answered; the wait for a connection gives up in time.
    proxy.set('silent');
    const silent = await send(whileDown);
    expect(silent.status).toBe(503);
    expect(silent.headers.get('retry-after')).toBe('1');
    expect(await silent.json()).toEqual({ message: UNAVAILABLE_MESSAGE });

    // Back: ready again by itself; the retried transfer (same Idempotency-Key) goes through once.
    proxy.set('forward');
    const back = await eventually(
      () => within10s(`${p.url}/api/ready`),
      (r) => r.status === 200,
    );
    expect(back.status).toBe(200);
    expect((await send(whileDown)).status).toBe(200);
    expect((await send(whileDown)).status).toBe(200);
    expect(await balanceOf(t.app, alice, 2)).toBe('8');
    expect(await balanceOf(t.app, bob, 2)).toBe('2');
    await expectLedgerBalanced(t.app, t.admin);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('fails the next statement of a transaction whose connection is lost, and the pool takes up again', async () => {
    const target = new URL(ADMIN_URL);
    const cut = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(testDatabaseUrl());
    viaProxy.host = `127.0.0.1:${cut.port}`;
    const database = await openDatabase({ databaseUrl: viaProxy.toString(), dataDir: 'memory://', poolSize: 1 });
    try {
      // Lost between two statements, while the connection is checked out: no 'error' event ends the process.
      const failed = await database.db
        .transaction(async (tx) => {
          await tx.execute(sql`SELECT 1`);
          cut.set('refuse');
          await new Promise((r) => setTimeout(r, 200));
          await tx.execute(sql`SELECT 2`);
        })
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect(isDatabaseUnavailable(failed)).toBe(true);
      cut.set('forward');
      expect((await database.db.execute<{ n: number }>(sql`SELECT 3 AS n`)).rows).toEqual([{ n: 3 }]);
    } finally {
      await database.close();
      await cut.close();
    }
  });
});
