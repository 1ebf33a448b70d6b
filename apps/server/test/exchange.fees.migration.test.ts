/**
 * Migration 0056 (DESIGN §11.4): every existing pair's one `fee` becomes both its maker and its taker fee,
 * so it keeps charging both sides what it did; the pair shows all three on the wire.
 */
import { rmSync } from 'node:fs';
import type { Pair } from '@starlight/shared';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { MIGRATIONS_DIR } from '../src/paths.ts';
import { makeApp } from './helpers.ts';
import { migrationsBefore, recreateDatabase } from './migrations.helpers.ts';
import { TEST_DB_NAME, testDatabaseUrl } from './test-db.ts';

const NAME = `${TEST_DB_NAME}_feesplit`;
let built: BuiltApp | undefined;
afterAll(async () => {
  await built?.app.close();
});

describe('splitting a pair fee into maker and taker fees', () => {
  it("fills both from each existing pair's fee", async () => {
    await recreateDatabase(NAME);

    const pool = new pg.Pool({ connectionString: testDatabaseUrl(NAME), max: 2 });
    const before = migrationsBefore('0056_pair_maker_taker_fees');
    try {
      await migrate(drizzle(pool), { migrationsFolder: before });
      await pool.query(
        `INSERT INTO currencies (currency_id, ticker, name, precision)
         VALUES (901, 'MGA', 'Migration A', 2), (902, 'MGB', 'Migration B', 2), (903, 'MGC', 'Migration C', 2)`,
      );
      await pool.query(
        `INSERT INTO exchange_pairs (id, buy_currency, sell_currency, fee)
         VALUES ('bbbbbbbbbbbbbbbbbbbbbbb1', 901, 902, 0.0025), ('bbbbbbbbbbbbbbbbbbbbbbb2', 903, 902, 0)`,
      );
      await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS_DIR });

      const rows = await pool.query(
        'SELECT id, fee::text, maker_fee::text, taker_fee::text FROM exchange_pairs ORDER BY id',
      );
      expect(rows.rows).toEqual([
        { id: 'bbbbbbbbbbbbbbbbbbbbbbb1', fee: '0.002500000', maker_fee: '0.002500000', taker_fee: '0.002500000' },
        { id: 'bbbbbbbbbbbbbbbbbbbbbbb2', fee: '0.000000000', maker_fee: '0.000000000', taker_fee: '0.000000000' },
      ]);

      built = await makeApp({ DATABASE_URL: testDatabaseUrl(NAME) });
      const res = await built.app.inject({ method: 'GET', url: '/api/cex/getPairs' });
      expect(res.statusCode, res.body).toBe(200);
      const pair = res.json<{ pairs: Pair[] }>().pairs.find((p) => p._id === 'bbbbbbbbbbbbbbbbbbbbbbb1');
      expect(pair).toMatchObject({ fee: '0.0025', makerFee: '0.0025', takerFee: '0.0025' });
    } finally {
      await pool.end();
      rmSync(before, { recursive: true, force: true });
    }
  });
});
