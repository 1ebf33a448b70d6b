/**
 * The Idempotency-Key of the bank's money routes (DESIGN §4): a repeated transfer or mint replays its first
 * answer and moves money once, a refused request's key is not kept, keys belong to their member, and a
 * malformed key is refused.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bankCalls } from './bank.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, mint, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const { transfer, history, adminLogs } = bankCalls(t);

describe('Idempotency-Key', () => {
  it('replays the first response of a repeated transfer and debits once', async () => {
    const a = await registerMember(t.app, 'idem');
    const b = await registerMember(t.app, 'idem');
    await mint(t.app, t.admin, a.nickname, 2, '10');
    const key = { 'idempotency-key': `k-${randomBytes(8).toString('hex')}` };
    const first = await transfer(a, b.nickname, 2, '3', { note: 'once' }, key);
    expect(first.statusCode, first.body).toBe(200);
    const second = await transfer(a, b.nickname, 2, '3', { note: 'once' }, key);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(await balanceOf(t.app, a, 2)).toBe('7');
    expect(await balanceOf(t.app, b, 2)).toBe('3');
    expect((await history(a)).total).toBe(2);

    const other = await transfer(a, b.nickname, 2, '4', { note: 'once' }, key);
    expect(other.statusCode).toBe(409);
    expect(await balanceOf(t.app, a, 2)).toBe('7');

    // Keys belong to their member: another member may use the same one.
    const c = await registerMember(t.app, 'idem');
    await mint(t.app, t.admin, c.nickname, 2, '10');
    expect((await transfer(c, b.nickname, 2, '3', { note: 'once' }, key)).statusCode).toBe(200);
    expect(await balanceOf(t.app, b, 2)).toBe('6');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('does not keep the key of a refused request, so a retry can succeed', async () => {
    const a = await registerMember(t.app, 'retry');
    const b = await registerMember(t.app, 'retry');
    const key = { 'idempotency-key': `k-${randomBytes(8).toString('hex')}` };
    expect((await transfer(a, b.nickname, 2, '3', {}, key)).statusCode).toBe(409);
    await mint(t.app, t.admin, a.nickname, 2, '3');
    const retry = await transfer(a, b.nickname, 2, '3', {}, key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect((await transfer(a, b.nickname, 2, '3', {}, key)).body).toBe(retry.body);
    expect(await balanceOf(t.app, a, 2)).toBe('0');
    expect(await balanceOf(t.app, b, 2)).toBe('3');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses a malformed key with 400 and moves nothing', async () => {
    const a = await registerMember(t.app, 'badkey');
    const b = await registerMember(t.app, 'badkey');
    await mint(t.app, t.admin, a.nickname, 2, '10');
    const res = await transfer(a, b.nickname, 2, '1', {}, { 'idempotency-key': 'k'.repeat(256) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"Idempotency-Key" contains an invalid value');
    expect(await balanceOf(t.app, a, 2)).toBe('10');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('covers mint as well', async () => {
    const m = await registerMember(t.app, 'idmint');
    const key = { 'idempotency-key': `k-${randomBytes(8).toString('hex')}` };
    const body = { recipientNickName: m.nickname, currencyId: 2, amount: '5', note: 'once only' };
    const first = await call(t.app, t.admin.token, 'POST', '/api/bank/mint', body, key);
    const second = await call(t.app, t.admin.token, 'POST', '/api/bank/mint', body, key);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.body).toBe(first.body);
    expect(await balanceOf(t.app, m, 2)).toBe('5');
    expect(await adminLogs(sql`affected_user_id = ${m.id}`)).toHaveLength(1);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
