/**
 * Migration 0049 (DESIGN §11.2): each member's one key (users.api_key_hash and its sealed copy) becomes
 * their key named Default with the scopes read, trade and transfer, and keeps working; members without a
 * key get none; the old columns are gone.
 */
import { rmSync } from 'node:fs';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { apiKeySealingKey, generateApiKey, hashApiKey, sealApiKey } from '../src/lib/api-key-crypto.ts';
import { MIGRATIONS_DIR } from '../src/paths.ts';
import { makeApp } from './helpers.ts';
import { migrationsBefore, recreateDatabase } from './migrations.helpers.ts';
import { TEST_DB_NAME, TEST_JWT_SECRET, testDatabaseUrl } from './test-db.ts';

const NAME = `${TEST_DB_NAME}_keymove`;
let built: BuiltApp | undefined;
afterAll(async () => {
  await built?.app.close();
});

describe('moving the one key into api_keys', () => {
  it('makes a Default key of each stored key, which keeps working', async () => {
    await recreateDatabase(NAME);

    const pool = new pg.Pool({ connectionString: testDatabaseUrl(NAME), max: 2 });
    const before = migrationsBefore('0049_api_keys');
    try {
      await migrate(drizzle(pool), { migrationsFolder: before });
      const key = generateApiKey();
      const sealed = sealApiKey(key, apiKeySealingKey(TEST_JWT_SECRET));
      await pool.query(
        `INSERT INTO users (id, nickname, email, api_key_hash, api_key_sealed)
         VALUES ('aaaaaaaaaaaaaaaaaaaaaaa1', 'keyholder', 'kh@example.test', $1, $2),
                ('aaaaaaaaaaaaaaaaaaaaaaa2', 'keyless', 'kl@example.test', NULL, NULL)`,
        [hashApiKey(key), sealed],
      );
      await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS_DIR });

      const rows = await pool.query(
        'SELECT id, user_id, name, prefix, secret_hash, sealed, scopes, allowed_ips, expires_at, revoked_at FROM api_keys',
      );
      expect(rows.rows).toEqual([
        {
          id: expect.stringMatching(/^[0-9a-f]{24}$/),
          user_id: 'aaaaaaaaaaaaaaaaaaaaaaa1',
          name: 'Default',
          prefix: 'sl_',
          secret_hash: hashApiKey(key),
          sealed,
          scopes: ['read', 'trade', 'transfer'],
          allowed_ips: [],
          expires_at: null,
          revoked_at: null,
        },
      ]);
      const columns = await pool.query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'users' AND column_name LIKE 'api_key%'`,
      );
      expect(columns.rows).toEqual([]);

      built = await makeApp({ DATABASE_URL: testDatabaseUrl(NAME) });
      const me = await built.app.inject({ method: 'GET', url: '/api/user/me', headers: { 'x-api-key': key } });
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json().user.nickname).toBe('keyholder');
      const withdraw = await built.app.inject({
        method: 'POST',
        url: '/api/bank/withdraw',
        headers: { 'x-api-key': key },
        payload: {},
      });
      expect(withdraw.json().message).toBe('This API key does not allow withdraw');
    } finally {
      await pool.end();
      rmSync(before, { recursive: true, force: true });
    }
  });
});
