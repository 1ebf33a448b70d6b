/**
 * What the database itself enforces of the ledger's promises (DESIGN §4): balances and the other tables
 * name rows that exist (foreign keys), and `bank_transactions` is append-only (a trigger refuses UPDATE,
 * DELETE and TRUNCATE), whatever code or hand-typed SQL asks. The ledger's rows carry no foreign keys
 * (migration 0034): a posting names real members and currencies through the balance rows it changes in
 * the same statement, and the full audit finds a row typed in by hand that names nobody. Nor do exchange
 * orders and trades (migration 0036): the full audit's exchange check finds one that names no pair, member
 * or order.
 */

import { type Amount, AppError, type AuditResponse, parseAmount } from '@starlight/shared';
import { type SQL, sql, TransactionRollbackError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newObjectId } from '../src/lib/ids.ts';
import { countOrphanExchangeRows } from '../src/modules/exchange/exchange.public.ts';
import { type Entry, postEntries } from '../src/modules/ledger/ledger.public.ts';
import { compareBalances } from '../src/modules/reports/conservation.queries.ts';
import { call, expectLedgerBalanced, mint, registerMember, sqlStateOf, useTestApp } from './helpers.ts';

const nobody = newObjectId();

describe('the ledger tables in the database', () => {
  const t = useTestApp();
  const exec = (q: SQL) => t.built.database.db.execute(q);

  it.each<[string, () => SQL]>([
    ['a balance of nobody', () => sql`INSERT INTO balances (user_id, currency_id, amount) VALUES (${nobody}, 1, 1)`],
    [
      'a balance in no currency',
      () => sql`INSERT INTO balances (user_id, currency_id, amount) VALUES (${t.admin.id}, 999999, 1)`,
    ],
    [
      'an admin log of nobody',
      () => sql`INSERT INTO admin_logs (id, admin_id, address, category, action)
                VALUES (${newObjectId()}, ${nobody}, '127.0.0.1', 1, 'x')`,
    ],
    [
      'an access log of nobody',
      () => sql`INSERT INTO access_logs (id, user_id, address, login_type)
                VALUES (${newObjectId()}, ${nobody}, '127.0.0.1', 1)`,
    ],
  ])('refuses %s (foreign key)', async (_what, statement) => {
    expect(await sqlStateOf(() => exec(statement()))).toBe('23503');
  });

  it('refuses to change, delete or truncate a ledger row, and keeps it as written', async () => {
    const member = await registerMember(t.app, 'ro');
    await mint(t.app, t.admin, member.nickname, 1, '5');
    const rows = () =>
      exec(sql`SELECT id, amount::text AS amount FROM bank_transactions WHERE recipient_id = ${member.id}`);
    const before = (await rows()).rows;
    expect(before).toEqual([{ id: expect.any(String), amount: '5.000000000' }]);

    const where = sql`WHERE recipient_id = ${member.id}`;
    expect(await sqlStateOf(() => exec(sql`UPDATE bank_transactions SET amount = 500 ${where}`))).toBe('23001');
    expect(await sqlStateOf(() => exec(sql`DELETE FROM bank_transactions ${where}`))).toBe('23001');
    expect(await sqlStateOf(() => exec(sql`TRUNCATE bank_transactions CASCADE`))).toBe('23001');

    expect((await rows()).rows).toEqual(before);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it.each(['admin_logs', 'access_logs'])('keeps %s append-only: no update, delete or truncate', async (table) => {
    const member = await registerMember(t.app, 'aud');
    await mint(t.app, t.admin, member.nickname, 1, '1');
    const name = sql.identifier(table);
    const column = sql.identifier(table === 'admin_logs' ? 'affected_user_id' : 'user_id');
    const where = sql`WHERE ${column} = ${member.id}`;
    const count = async () => Number((await exec(sql`SELECT count(*)::int AS n FROM ${name} ${where}`)).rows[0]?.n);
    expect(await count()).toBe(1);
    expect(await sqlStateOf(() => exec(sql`UPDATE ${name} SET address = 'forged' ${where}`))).toBe('23001');
    expect(await sqlStateOf(() => exec(sql`DELETE FROM ${name} ${where}`))).toBe('23001');
    expect(await sqlStateOf(() => exec(sql`TRUNCATE ${name} CASCADE`))).toBe('23001');
    expect(await count()).toBe(1);
  });
  it('refuses a posting that names nobody or no currency, and writes no row of it', async () => {
    const member = await registerMember(t.app, 'real');
    await mint(t.app, t.admin, member.nickname, 1, '5');
    const note = `nobody ${newObjectId()}`;
    const entry = (e: Partial<Entry>): Entry => ({
      category: 3,
      currencyId: 1,
      amount: parseAmount('1') as Amount,
      executorId: member.id,
      senderId: member.id,
      recipientId: null,
      note,
      ...e,
    });
    const post = (e: Partial<Entry>) => postEntries(t.built.database.db, [entry(e)], null);
    // A credit to nobody, or in no currency: the balance row it would open has no user or currency.
    expect(await sqlStateOf(() => post({ recipientId: nobody }))).toBe('23503');
    expect(await sqlStateOf(() => post({ senderId: null, recipientId: member.id, currencyId: 999999 }))).toBe('23503');
    // A debit of nobody: nobody holds anything.
    await expect(post({ senderId: nobody, recipientId: member.id })).rejects.toThrow(
      new AppError('CONFLICT', 'Insufficient funds'),
    );
    // A row of nobody to nobody changes no balance: the ledger does not write one.
    await expect(post({ senderId: null, recipientId: null })).rejects.toThrow(/name a sender or a recipient/);
    const written = await exec(sql`SELECT count(*)::int AS n FROM bank_transactions WHERE note = ${note}`);
    expect(written.rows[0]?.n).toBe(0);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it("finds a ledger row typed in by hand that names nobody: the full audit's balances check", async () => {
    const member = await registerMember(t.app, 'tamper');
    await mint(t.app, t.admin, member.nickname, 1, '5');
    // Both counts at one snapshot, so other tests' writes meanwhile do not count.
    const found: number[] = [];
    const ended = await t.built.database.db
      .transaction(
        async (tx) => {
          found.push((await compareBalances(tx)).mismatches);
          await tx.execute(sql`
            INSERT INTO bank_transactions (id, category, currency_id, amount, executor_id, sender_id, recipient_id)
            VALUES (${newObjectId()}, 3, 1, 2, ${nobody}, ${nobody}, ${member.id})`);
          found.push((await compareBalances(tx)).mismatches);
          // Nothing of it stays: the row goes with the transaction.
          tx.rollback();
        },
        { isolationLevel: 'repeatable read' },
      )
      .catch((err: unknown) => err);
    expect(ended).toBeInstanceOf(TransactionRollbackError);
    // Nobody's "balance" (no row, against -2 in the ledger) and the member's (5, against 7) differ.
    expect(found[1]! - found[0]!).toBe(2);
    await expect(exec(sql`SELECT 1 FROM bank_transactions WHERE sender_id = ${nobody}`)).resolves.toMatchObject({
      rows: [],
    });
    await expectLedgerBalanced(t.app, t.admin);
  });

  it("finds an order or a trade typed in by hand that names no pair, member or order: the full audit's exchange check", async () => {
    const found: Array<{ orders: number; trades: number }> = [];
    const ended = await t.built.database.db
      .transaction(
        async (tx) => {
          found.push(await countOrphanExchangeRows(tx));
          await tx.execute(sql`
            INSERT INTO exchange_orders (id, pair_id, user_id, buy_side, initial_amount, price, escrow_remaining)
            VALUES (${newObjectId()}, ${nobody}, ${t.admin.id}, true, 1, 1, 1)`);
          await tx.execute(sql`
            INSERT INTO exchange_trades (id, pair_id, buy_order_id, sell_order_id, taker_buy_side, price, amount,
                                         cost, buyer_fee, seller_fee)
            VALUES (${newObjectId()}, ${nobody}, ${nobody}, ${nobody}, true, 1, 1, 1, 0, 0)`);
          found.push(await countOrphanExchangeRows(tx));
          tx.rollback();
        },
        { isolationLevel: 'repeatable read' },
      )
      .catch((err: unknown) => err);
    expect(ended).toBeInstanceOf(TransactionRollbackError);
    expect(found).toEqual([
      { orders: 0, trades: 0 },
      { orders: 1, trades: 3 },
    ]);
    const audit = await call(t.app, t.admin.token, 'GET', '/api/bank/audit?full=true');
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.json<AuditResponse>().checks).toContainEqual({
      name: 'exchange',
      ok: true,
      detail: 'Every order names its pair and member, every trade its pair and orders',
    });
  });
});
