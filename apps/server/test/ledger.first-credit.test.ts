/**
 * First credits: an account with no balance row yet (a new tax collector on a busy currency,
 * new recipients) credited by 50 concurrent transfers at once. The ledger opens missing rows before it
 * locks, in the global order, so no two postings wait on each other in a cycle: every transfer goes
 * through, PostgreSQL reports no deadlock, the collector gets every tax, and the books balance.
 */
import { randomBytes } from 'node:crypto';
import type { Currency } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bankCalls } from './bank.helpers.ts';
import {
  balanceOf,
  call,
  expectLedgerBalanced,
  type Member,
  makeAppOnOwnDatabase,
  mint,
  registerMember,
  type TestApp,
  useTestApp,
} from './helpers.ts';

// Each test on a database of its own: PostgreSQL counts deadlocks per database, and other test files
// running beside these may have theirs (retried) in the shared one.
const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('first_credit_tax') });
const bank = bankCalls(t);
const CONCURRENT = 50;

/** Deadlocks PostgreSQL has detected in `app`'s database so far (its statistics, flushed within a second). */
async function deadlocks(app: TestApp = t): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const db = app.built.database.db;
  await db.execute(sql`SELECT pg_stat_clear_snapshot()`);
  const res = await db.execute<{ n: string }>(
    sql`SELECT deadlocks::text AS n FROM pg_stat_database WHERE datname = current_database()`,
  );
  return Number(res.rows[0]?.n ?? 0);
}

describe('first credits', () => {
  it(`of a new tax collector and ${CONCURRENT} new recipients by ${CONCURRENT} transfers at once`, async () => {
    const collector = await registerMember(t.app, 'fcollect');
    const coin: Currency = await bank.newCurrency({ transferTax: '0.1', taxCollector: collector.nickname });
    const senders: Member[] = [];
    const recipients: Member[] = [];
    for (let i = 0; i < CONCURRENT; i++) {
      const sender = await registerMember(t.app, 'fsend');
      await mint(t.app, t.admin, sender.nickname, coin.currencyId, '10');
      senders.push(sender);
      recipients.push(await registerMember(t.app, 'frecv'));
    }
    const before = await deadlocks();

    // Half under an Idempotency-Key (one transaction each), half through the batched lanes.
    const results = await Promise.all(
      senders.map((sender, i) =>
        call(
          t.app,
          sender.token,
          'POST',
          '/api/bank/p2pTransfer',
          { recipientNickName: recipients[i]?.nickname, currencyId: coin.currencyId, amount: '5' },
          i % 2 === 0 ? { 'idempotency-key': randomBytes(12).toString('hex') } : {},
        ),
      ),
    );
    expect(results.filter((r) => r.statusCode !== 200).map((r) => r.body)).toEqual([]);
    expect(await deadlocks()).toBe(before);

    // 5 sent each: 4.5 received, 0.5 tax to the collector, 5 left with the sender.
    expect(await balanceOf(t.app, collector, coin.currencyId)).toBe(String(0.5 * CONCURRENT));
    for (const [i, recipient] of recipients.entries()) {
      expect(await balanceOf(t.app, recipient, coin.currencyId)).toBe('4.5');
      expect(await balanceOf(t.app, senders[i] as Member, coin.currencyId)).toBe('5');
    }
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('the first buyers of a sale whose Credits row is missing', () => {
  // Its own database: a fresh sale, whose seeded Credits row (at 0) is removed, as before the seed made it.
  const own = useTestApp({}, { build: () => makeAppOnOwnDatabase('first_credit_sale') });
  const CREDITS = 3;

  it('all get their chips: the ledger opens the row before it locks', async () => {
    const db = own.built.database.db;
    const removed = await db.execute(sql`
      DELETE FROM balances b USING users u
      WHERE u.id = b.user_id AND u.nickname = 'synthsale' AND b.currency_id = ${CREDITS} AND b.amount = 0`);
    expect(removed.rowCount).toBe(1);
    const buyers = await Promise.all(Array.from({ length: 12 }, () => registerMember(own.app, 'fbuy')));
    await Promise.all(buyers.map((m) => mint(own.app, own.admin, m.nickname, CREDITS, '1000')));
    const before = await deadlocks(own);

    const results = await Promise.all(
      buyers.map((m) => call(own.app, m.token, 'POST', '/api/inventory/buySynthChips', { amount: 2 })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    expect(await deadlocks(own)).toBe(before);
    const sale = await db.execute<{ amount: string }>(sql`
      SELECT b.amount::text AS amount FROM balances b JOIN users u ON u.id = b.user_id
      WHERE u.nickname = 'synthsale' AND b.currency_id = ${CREDITS}`);
    expect(sale.rows.map((r) => Number(r.amount))).toEqual([12 * 2 * 500]);
    await expectLedgerBalanced(own.app, own.admin);
  });
});
