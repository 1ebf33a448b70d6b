/**
 * The first buyers of a fresh synth chip sale: the sale's Credits balance row exists from
 * the seed, so many first purchases racing each other all succeed; concurrent first inserts of that row
 * used to deadlock (40P01) and end as a 500 after the retries. Its own database: the sale must be new.
 */
import type { SynthChipsResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, expectLedgerBalanced, makeAppOnOwnDatabase, mint, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('chips_first') });
const CREDITS = 3;

describe('a fresh sale', () => {
  it('has its Credits row from the seed, and 12 racing first buyers all get their chips', async () => {
    const row = await t.built.database.db.execute<{ amount: string }>(sql`
      SELECT b.amount::text AS amount FROM balances b JOIN users u ON u.id = b.user_id
      WHERE u.nickname = 'synthsale' AND b.currency_id = ${CREDITS}`);
    expect(row.rows.map((r) => Number(r.amount))).toEqual([0]);

    const buyers = await Promise.all(Array.from({ length: 12 }, () => registerMember(t.app, 'first')));
    await Promise.all(buyers.map((m) => mint(t.app, t.admin, m.nickname, CREDITS, '1000')));
    const results = await Promise.all(
      buyers.map((m) => call(t.app, m.token, 'POST', '/api/inventory/buySynthChips', { amount: 2 })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    const sale = await call(t.app, undefined, 'GET', '/api/inventory/synthChips');
    expect(sale.json<SynthChipsResponse>().remaining).toBe(10000 - 24);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
