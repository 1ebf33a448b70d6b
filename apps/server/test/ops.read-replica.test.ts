/**
 * DATABASE_READ_URL: the reads that tolerate a few seconds of lag (admin lists and stats,
 * leaderboards, public stats) go to the standby; a member's own balances and history, and the audit, to
 * the primary. The "standby" here is a database of its own that the primary never writes to, so a row
 * only one of the two holds shows which one a route read.
 */
import type { LeaderboardResponse, TransactionsResponse } from '@starlight/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import {
  balanceOf,
  call,
  expectLedgerBalanced,
  loginAdmin,
  type Member,
  makeApp,
  makeAppOnOwnDatabase,
  mint,
  registerMember,
} from './helpers.ts';
import { TEST_DB_NAME, testDatabaseUrl } from './test-db.ts';

let standby: BuiltApp;
let primary: BuiltApp;
let standbyAdmin: Member;
let primaryAdmin: Member;

beforeAll(async () => {
  standby = await makeAppOnOwnDatabase('standby');
  primary = await makeApp({ DATABASE_READ_URL: testDatabaseUrl(`${TEST_DB_NAME}_standby`) });
  standbyAdmin = await loginAdmin(standby.app);
  primaryAdmin = await loginAdmin(primary.app);
});

afterAll(async () => {
  await primary?.app.close();
  await standby?.app.close();
});

describe('with DATABASE_READ_URL', () => {
  it('reads admin lists, stats and the leaderboard from the standby, and a member’s own data from the primary', async () => {
    const onPrimary = await registerMember(primary.app, 'rrp');
    const onStandby = await registerMember(standby.app, 'rrs');
    await mint(primary.app, primaryAdmin, onPrimary.nickname, 2, '3');
    await mint(standby.app, standbyAdmin, onStandby.nickname, 2, '7');
    await standby.leaderboard.job.runNow();
    const admin = primaryAdmin.token;

    const users = async (nickname: string) => {
      const res = await call(primary.app, admin, 'POST', '/api/user/getUsers', {
        nickname,
        paging: { limit: 10, page: 1 },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ users: Array<{ nickname: string }> }>().users.map((u) => u.nickname);
    };
    expect(await users(onStandby.nickname)).toEqual([onStandby.nickname]);
    expect(await users(onPrimary.nickname)).toEqual([]);

    const everyRow = await call(primary.app, admin, 'POST', '/api/bank/alltransactions', {
      paging: { limit: 50, page: 1 },
    });
    expect(everyRow.statusCode, everyRow.body).toBe(200);
    const rows = JSON.stringify(everyRow.json<TransactionsResponse>().txs);
    expect(rows).toContain(onStandby.nickname);
    expect(rows).not.toContain(onPrimary.nickname);

    const logs = await call(primary.app, admin, 'POST', '/api/audit/getAccessLogs', { paging: { limit: 50, page: 1 } });
    expect(logs.statusCode, logs.body).toBe(200);
    expect(logs.body).toContain(onStandby.nickname);
    expect(logs.body).not.toContain(onPrimary.nickname);

    const board = await call(primary.app, undefined, 'POST', '/api/user/leaderboard', { currencyId: 2 });
    expect(board.statusCode, board.body).toBe(200);
    const leaders = board.json<LeaderboardResponse>().leaders.map((l) => l.nickname);
    expect(leaders).toContain(onStandby.nickname);
    expect(leaders).not.toContain(onPrimary.nickname);

    // The member's own balance and history come from the primary, where their write went.
    expect(await balanceOf(primary.app, onPrimary, 2)).toBe('3');
    const own = await call(primary.app, onPrimary.token, 'POST', '/api/bank/transactions', {
      paging: { limit: 10, page: 1 },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json<TransactionsResponse>().txs).toHaveLength(1);

    // The standby's lag is a metric (0: this "standby" is not replaying anything).
    const metrics = await primary.app.inject({ method: 'GET', url: '/api/metrics' });
    expect(metrics.body).toMatch(/^starlight_db_replication_lag_seconds 0$/m);

    await expectLedgerBalanced(primary.app, primaryAdmin);
    await expectLedgerBalanced(standby.app, standbyAdmin);
  });
});
