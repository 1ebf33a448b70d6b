/**
 * History totals are kept per account until its next change (history.totals.ts): a
 * member's own, and the admin's list filtered by an account's nickname. What nobody must notice: a new
 * row counts at once on the server that wrote it, and within the live feed's lag on another server;
 * each filter and page start has its own total; another member's change leaves theirs alone; a row that
 * names the account only as its executor (an admin's mint) counts on the admin's list too. The rows a
 * seek to a day skips are kept the same way.
 */
import type { TransactionsResponse } from '@starlight/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import {
  call,
  eventually,
  expectLedgerBalanced,
  type Member,
  makeApp,
  mint,
  registerMember,
  useTestApp,
} from './helpers.ts';

const t = useTestApp();
const SN = 2; // untaxed (apps/server/src/seed.ts)
const SD = 1;

async function history(app: BuiltApp['app'], m: Member, filters: Record<string, unknown> = {}, page = 1) {
  const res = await call(app, m.token, 'POST', '/api/bank/transactions', { paging: { page, limit: 5 }, ...filters });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<TransactionsResponse>();
  return { total: body.total, ids: body.txs.map((x) => x._id) };
}

describe('kept history totals', () => {
  let b: BuiltApp;
  beforeAll(async () => {
    b = await makeApp();
  });
  afterAll(() => b.app.close());

  it('keep the rows a seek skips until the member’s next change, here and on another server', async () => {
    const carol = await registerMember(t.app, 'hts');
    for (let i = 0; i < 5; i++) await mint(t.app, t.admin, carol.nickname, SN, '1');
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const seek = async (app: BuiltApp['app']) => {
      const res = await call(app, carol.token, 'POST', '/api/bank/transactions', {
        paging: { page: 1, limit: 5 },
        seekDate: yesterday,
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<TransactionsResponse>();
      return { page: body.page, total: body.total, rows: body.txs.length };
    };
    // Every row is newer than the day sought: the seek lands on the last page, here five rows on one.
    expect(await seek(t.app)).toEqual({ page: 1, total: 5, rows: 5 });
    expect(await seek(b.app)).toEqual({ page: 1, total: 5, rows: 5 });
    // A sixth row: the last page is now the second, at once where it was written and soon on the other.
    await mint(t.app, t.admin, carol.nickname, SN, '1');
    expect(await seek(t.app)).toEqual({ page: 2, total: 6, rows: 1 });
    const onB = await eventually(
      () => seek(b.app),
      (v) => v.page === 2,
    );
    expect(onB).toEqual({ page: 2, total: 6, rows: 1 });
  });

  it('count a member’s new row at once where it was written, and soon on another server', async () => {
    const a = t.app;
    const alice = await registerMember(a, 'hta');
    const bob = await registerMember(a, 'htb');
    for (let i = 0; i < 6; i++) await mint(a, t.admin, alice.nickname, SN, '10');
    await mint(a, t.admin, alice.nickname, SD, '10');
    // Both servers answer (and keep) the totals: all rows, one currency, and page 2 (its own bound).
    expect((await history(a, alice)).total).toBe(7);
    expect((await history(b.app, alice)).total).toBe(7);
    expect((await history(a, alice, { currencyId: SD })).total).toBe(1);
    expect(await history(a, alice, {}, 2)).toMatchObject({ total: 7 });

    // Another member's change leaves alice's totals as they are (and right).
    await mint(a, t.admin, bob.nickname, SN, '1');
    expect((await history(a, alice)).total).toBe(7);

    // Alice sends bob SN on server A: A counts it at once, on every filter; B within the feed's lag.
    const sent = await call(a, alice.token, 'POST', '/api/bank/p2pTransfer', {
      recipientNickName: bob.nickname,
      currencyId: SN,
      amount: '3',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const now = await history(a, alice);
    expect(now.total).toBe(8);
    expect(now.ids).toHaveLength(5);
    expect((await history(a, alice, {}, 2)).total).toBe(8);
    expect((await history(a, alice, { currencyId: SD })).total).toBe(1);
    expect((await history(a, alice, { currencyId: SN })).total).toBe(7);
    expect((await history(a, bob)).total).toBe(2);
    const onB = await eventually(
      () => history(b.app, alice),
      (v) => v.total === 8,
    );
    expect(onB.total).toBe(8);

    // A row written on B shows on B at once, and on A soon.
    await mint(b.app, t.admin, alice.nickname, SD, '1');
    expect((await history(b.app, alice)).total).toBe(9);
    expect((await history(b.app, alice, { currencyId: SD })).total).toBe(2);
    const onA = await eventually(
      () => history(a, alice, { currencyId: SD }),
      (v) => v.total === 2,
    );
    expect(onA.total).toBe(2);
    await expectLedgerBalanced(a, t.admin);
  });

  it('keep the admin’s list by nickname right, for every party of a row, the executor too', async () => {
    const a = t.app;
    const carol = await registerMember(a, 'htc');
    const dave = await registerMember(a, 'htd');
    const list = async (nickname: string, filters: Record<string, unknown> = {}) => {
      const res = await call(a, t.admin.token, 'POST', '/api/bank/alltransactions', {
        paging: { page: 1, limit: 5 },
        nickname,
        ...filters,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TransactionsResponse>().total;
    };
    await mint(a, t.admin, carol.nickname, SN, '5');
    expect(await list(carol.nickname)).toBe(1);
    expect((await history(a, carol)).total).toBe(1);
    const byAdmin = await list(t.admin.nickname);
    const byAdminInSd = await list(t.admin.nickname, { currencyId: SD });

    // The admin executes the mint and is neither its sender nor its recipient: it counts on their list.
    await mint(a, t.admin, carol.nickname, SN, '5');
    expect(await list(carol.nickname)).toBe(2);
    expect((await history(a, carol)).total).toBe(2);
    expect(await list(t.admin.nickname)).toBe(byAdmin + 1);
    expect(await list(t.admin.nickname, { currencyId: SD })).toBe(byAdminInSd);

    // A transfer names both members: both lists count it, on the server that wrote it and on another.
    const sent = await call(a, carol.token, 'POST', '/api/bank/p2pTransfer', {
      recipientNickName: dave.nickname,
      currencyId: SN,
      amount: '1',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await list(carol.nickname)).toBe(3);
    expect(await list(dave.nickname)).toBe(1);
    expect(await list(carol.nickname, { currencyId: SD })).toBe(0);
    const onB = await eventually(
      async () => {
        const res = await call(b.app, t.admin.token, 'POST', '/api/bank/alltransactions', {
          paging: { page: 1, limit: 5 },
          nickname: carol.nickname,
        });
        return res.json<TransactionsResponse>().total;
      },
      (v) => v === 3,
    );
    expect(onB).toBe(3);
    await expectLedgerBalanced(a, t.admin);
  });
});
