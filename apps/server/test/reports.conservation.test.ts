/**
 * The incremental audit: the conservation check stored by the audit-check job
 * equals one taken live and answers only while it is still true; the audit still finds a tampered
 * balance, money moved without a ledger row, a changed ledger row, a disabled append-only trigger and a
 * backdated row. On a database of its own, written as reports.rollup.test.ts's: the tampering must not reach
 * the files that share the test database.
 */
import { type Currency, parseAmount } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { newObjectId } from '../src/lib/ids.ts';
import { takeCheck, tickAuditCheck } from '../src/modules/reports/conservation.check.ts';
import { rebuildLedgerRollup } from '../src/modules/reports/rollup.queries.ts';
import type { Market } from './exchange.helpers.ts';
import { expectLedgerBalanced, type Member, makeAppOnOwnDatabase, mint, useTestApp } from './helpers.ts';
import { rollupChecks, seedRollupHistory } from './reports.rollup.helpers.ts';

const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('rollup_audit') });
let coin: Currency;
let market: Market;
let members: Member[];
const { db, tick, audit, check, expectKeptEqualsScan } = rollupChecks(t, () => market);

beforeAll(async () => {
  ({ coin, market, members } = await seedRollupHistory(t));
});

/** A conservation check taken now, at one snapshot, as the job takes it (not stored). */
async function liveCheck() {
  return (await db().transaction((tx) => takeCheck(tx, 'kept'), { isolationLevel: 'repeatable read' })).check;
}

describe('the stored conservation check', () => {
  it('equals a check taken live on a quiet database, and the audit answers from it with its time', async () => {
    await tick();
    const stored = await tickAuditCheck(db(), { wait: true });
    expect(stored).toBeDefined();
    expect(await liveCheck()).toEqual({ ...stored, checkedAt: expect.any(Date) });
    const incremental = await audit();
    expect(incremental.ok, JSON.stringify(incremental.checks)).toBe(true);
    // Answered from a stored check (the job may have stored a later one meanwhile: never an earlier one).
    expect(incremental.message).toMatch(/^Ledger balanced \(balances checked \d+ s ago, at \d{4}-.*Z\)$/);
    expect(Date.parse(incremental.checkedAt)).toBeGreaterThanOrEqual(stored!.checkedAt.getTime());
    const full = await audit(true);
    expect(full.ok, JSON.stringify(full.checks)).toBe(true);
    expect(full.message).toBe('Ledger balanced');
    expect(full.currencies).toEqual(incremental.currencies);
  });

  it('is not used once money moved after it: the audit checks the balances of now', async () => {
    await tickAuditCheck(db(), { wait: true });
    const before = (await audit()).currencies.find((c) => c.currencyId === coin.currencyId)!;
    const posted = Date.now();
    await mint(t.app, t.admin, members[3]!.nickname, coin.currencyId, '2.5');
    const after = await audit();
    expect(after.message).toBe('Ledger balanced');
    expect(Date.parse(after.checkedAt)).toBeGreaterThanOrEqual(posted - 1000);
    const entry = after.currencies.find((c) => c.currencyId === coin.currencyId)!;
    expect(parseAmount(entry.balances)! - parseAmount(before.balances)!).toBe(parseAmount('2.5'));
    expect(parseAmount(entry.issued)! - parseAmount(before.issued)!).toBe(parseAmount('2.5'));
    // Admins asking at once after a posting share live checks, each taken after they asked.
    await mint(t.app, t.admin, members[3]!.nickname, coin.currencyId, '1');
    const together = await Promise.all(Array.from({ length: 8 }, () => audit()));
    for (const a of together) {
      expect(a.ok).toBe(true);
      const c = a.currencies.find((x) => x.currencyId === coin.currencyId)!;
      expect(parseAmount(c.issued)! - parseAmount(entry.issued)!).toBe(parseAmount('1'));
    }
    // The full recount stores its figures as the latest check, which then answers.
    const full = await audit(true);
    const next = await audit();
    expect(next.message).toMatch(/^Ledger balanced \(balances checked \d+ s ago/);
    expect(Date.parse(next.checkedAt)).toBeGreaterThanOrEqual(Date.parse(full.checkedAt));
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('is not used when it is older than the bound (the job is not running)', async () => {
    await tickAuditCheck(db(), { wait: true });
    await db().execute(sql`UPDATE audit_check SET checked_at = checked_at - interval '10 minutes' WHERE id = 1`);
    const a = await audit();
    expect(a.message).toBe('Ledger balanced');
    expect(Date.now() - Date.parse(a.checkedAt)).toBeLessThan(60_000);
  });
});

describe('the audit finds tampering', () => {
  it('finds a balance changed in the database: the full recount at once, the incremental audit from the next check', async () => {
    const target = members[1]!;
    await tickAuditCheck(db(), { wait: true });
    await db().execute(
      sql`UPDATE balances SET amount = amount + 1 WHERE user_id = ${target.id} AND currency_id = ${coin.currencyId}`,
    );
    // A check taken now sees it; the stored one (no ledger row changed) until the job takes the next.
    const now = await liveCheck();
    const c = now.currencies.find((x) => x.currencyId === coin.currencyId)!;
    expect(c.balances + c.escrow - (c.issued - c.removed)).toBe(parseAmount('1'));
    const checked = await tickAuditCheck(db(), { wait: true });
    expect(checked).toEqual({ ...now, checkedAt: expect.any(Date) });
    for (const a of [await audit(), await audit(true)]) {
      expect(a.ok).toBe(false);
      expect(a.message).toBe('Ledger NOT balanced');
      expect(a.currencies.find((c) => c.currencyId === coin.currencyId)).toMatchObject({
        difference: '1.00',
        ok: false,
      });
    }
    // The full recount finds it at once, without waiting for the job.
    await db().execute(
      sql`UPDATE balances SET amount = amount - 1 WHERE user_id = ${target.id} AND currency_id = ${coin.currencyId}`,
    );
    await tickAuditCheck(db(), { wait: true });
    await db().execute(
      sql`UPDATE balances SET amount = amount + 1 WHERE user_id = ${target.id} AND currency_id = ${coin.currencyId}`,
    );
    const full = await audit(true);
    expect(full.ok).toBe(false);
    expect(full.currencies.find((c) => c.currencyId === coin.currencyId)).toMatchObject({ difference: '1.00' });
    await db().execute(
      sql`UPDATE balances SET amount = amount - 1 WHERE user_id = ${target.id} AND currency_id = ${coin.currencyId}`,
    );
    // A check that found a difference is not trusted: the audit takes one now, which is clean again.
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('finds money moved between two balances without a ledger row in the full recount', async () => {
    const [from, to] = [members[0]!, members[2]!];
    const move = (x: number) =>
      db().execute(sql`
        UPDATE balances SET amount = amount + CASE user_id WHEN ${to.id} THEN ${x}::numeric ELSE ${-x}::numeric END
        WHERE user_id IN (${from.id}, ${to.id}) AND currency_id = ${coin.currencyId}`);
    await move(3);
    // Conservation still holds: only the full recount, member by member, sees it.
    expect((await audit()).ok).toBe(true);
    const full = await audit(true);
    expect(full.ok).toBe(false);
    expect(full.currencies.every((c) => c.ok)).toBe(true);
    expect(check(full, 'balances')).toMatchObject({ ok: false });
    expect(check(full, 'balances')?.detail).toMatch(/^2 balances differ from their ledger rows/);
    await move(-3);
    expect(check(await audit(true), 'balances')).toMatchObject({ ok: true });
    await expectLedgerBalanced(t.app, t.admin);
  });

  /** Runs `work` on the ledger with its append-only trigger disabled, as an intruder with the owner's rights would. */
  async function withTriggerOff(work: string) {
    await db().transaction(async (tx) => {
      await tx.execute(sql`ALTER TABLE bank_transactions DISABLE TRIGGER bank_transactions_no_update_delete`);
      await tx.execute(sql.raw(work));
      await tx.execute(sql`ALTER TABLE bank_transactions ENABLE TRIGGER bank_transactions_no_update_delete`);
      // The statistics reach the shared counters when this session next flushes (within seconds otherwise).
      await tx.execute(sql`SELECT pg_stat_force_next_flush()`);
    });
  }

  it('finds an old ledger row changed with the trigger disabled, though the sums still balance', async () => {
    await tick();
    // A transfer between two members: changing its amount moves nothing issued or removed.
    const row = (
      await db().execute<{ id: string; amount: string }>(sql`
        SELECT id, amount::text AS amount FROM bank_transactions
        WHERE category = 3 AND note = 'history' AND currency_id = ${coin.currencyId} ORDER BY created_at LIMIT 1`)
    ).rows[0]!;
    await withTriggerOff(`UPDATE bank_transactions SET amount = amount + 5 WHERE id = '${row.id}'`);
    const incremental = await audit();
    expect(incremental.currencies.every((c) => c.ok)).toBe(true);
    expect(incremental.ok).toBe(false);
    expect(check(incremental, 'ledger changes')).toMatchObject({ ok: false });
    expect(check(incremental, 'ledger changes')?.detail).toMatch(/^1 ledger rows updated and 0 deleted since/);
    expect(incremental.message).toMatch(/^Ledger NOT balanced: check ledger changes( \(balances checked .*\))?$/);
    const full = await audit(true);
    expect(full.ok).toBe(false);
    expect(check(full, 'rollup')).toMatchObject({ ok: false });
    expect(check(full, 'rollup')?.detail).toMatch(/^3 rollup buckets differ from the ledger/);
    // The row's new version lies after the job's last position, stamped in the past: seen as backdated too.
    await tick();
    expect(check(await audit(), 'backdated rows')).toMatchObject({ ok: false });
    // Put back: the full recount finds the rollup equal to the ledger again and clears the tripwires.
    await withTriggerOff(`UPDATE bank_transactions SET amount = ${row.amount} WHERE id = '${row.id}'`);
    await tick();
    expect((await audit()).ok).toBe(false);
    expect((await audit(true)).ok).toBe(true);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('finds a disabled append-only trigger', async () => {
    await db().execute(sql`ALTER TABLE bank_transactions DISABLE TRIGGER bank_transactions_no_truncate`);
    try {
      const a = await audit();
      expect(a.ok).toBe(false);
      expect(check(a, 'append-only triggers')).toEqual({
        name: 'append-only triggers',
        ok: false,
        detail: 'Disabled: bank_transactions_no_truncate',
      });
    } finally {
      await db().execute(sql`ALTER TABLE bank_transactions ENABLE TRIGGER bank_transactions_no_truncate`);
    }
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('finds a ledger row inserted with a time below the watermark', async () => {
    await tick();
    const id = newObjectId();
    // A transfer between two members dated yesterday, with its balances: the sums still balance.
    await db().transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO bank_transactions (id, created_at, category, currency_id, amount, sender_id, recipient_id, note)
        VALUES (${id}, now() - interval '1 day', 3, ${coin.currencyId}, 1, ${members[0]!.id}, ${members[1]!.id}, 'backdated')`);
      await tx.execute(sql`
        UPDATE balances SET amount = amount + CASE user_id WHEN ${members[1]!.id} THEN 1 ELSE -1 END
        WHERE user_id IN (${members[0]!.id}, ${members[1]!.id}) AND currency_id = ${coin.currencyId}`);
    });
    await tick();
    const incremental = await audit();
    expect(incremental.currencies.every((c) => c.ok)).toBe(true);
    expect(check(incremental, 'backdated rows')).toEqual({
      name: 'backdated rows',
      ok: false,
      detail: `1 ledger rows were stored with a time below the rollup watermark (inserted backdated or rewritten; first: ${id}): run the full recount`,
    });
    const full = await audit(true);
    expect(check(full, 'rollup')).toMatchObject({ ok: false });
    // Once the row is accepted as history, a rebuild takes it in and the audit is clean again.
    await rebuildLedgerRollup(db());
    await expectKeptEqualsScan([coin.currencyId]);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
