/**
 * Readiness answers from its background probe's state (DESIGN §9): a load balancer's check gets its
 * answer at once even while every pool connection is busy with request work, so a loaded but healthy
 * replica is not taken out of the rotation.
 */
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.ts';

const t = useTestApp({ DB_POOL_SIZE: '2' });

describe('GET /api/ready', () => {
  const held: pg.PoolClient[] = [];
  afterAll(() => {
    for (const c of held) c.release();
  });

  it('answers 200 at once while every pool connection is taken', async () => {
    const pool = t.built.database.pool as pg.Pool;
    for (let i = 0; i < 2; i++) held.push(await pool.connect());
    expect(pool.waitingCount).toBe(0);

    const t0 = performance.now();
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
    const ms = performance.now() - t0;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ready' });
    // Nothing waited for a connection (a check in the pool's queue would have waited for one).
    expect(ms).toBeLessThan(250);
  });
});
