/**
 * Transfers written in one batch (DESIGN §9: group commit) end exactly as the same transfers sent one
 * after the other: the same answers and refusals, the same balances to the last unit, and a balanced
 * ledger. A batch checks each transfer against what the earlier ones left, so money received later in
 * the batch never pays for an earlier transfer (two members with nothing cannot pay each other). A batch
 * whose posting the database refuses runs again one by one, so only the faulty transfer fails.
 */
import { type Amount, AppError, parseAmount } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inTransaction } from '../src/db/transaction.ts';
import { LiveChanges } from '../src/lib/live-changes.ts';
import { p2pTransfers, type TransferJob } from '../src/modules/bank/transfers.service.ts';
import { balanceOf, call, expectLedgerBalanced, type Member, mint, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();

const SD = 1; // taxed 1%, to the admin
const SN = 2; // untaxed

interface TransferSpec {
  from: number;
  /** 3 is a nickname nobody has. */
  to: number;
  currencyId: number;
  amount: string;
}

/** Three members holding a little of SD and SN (so some transfers are refused). */
async function members(): Promise<Member[]> {
  const list = [
    await registerMember(t.app, 'bt'),
    await registerMember(t.app, 'bt'),
    await registerMember(t.app, 'bt'),
  ];
  for (const m of list) {
    await mint(t.app, t.admin, m.nickname, SD, '5');
    await mint(t.app, t.admin, m.nickname, SN, '3');
  }
  return list;
}

const nicknameOf = (list: Member[], i: number) => list[i]?.nickname ?? 'nobodyhasthisnick';

/** A message with the members' nicknames as their indexes, so two groups compare. */
function generic(message: string, list: Member[]): string {
  return list.reduce((text, m, i) => text.replaceAll(m.nickname, `member${i}`), message);
}

async function balances(list: Member[]): Promise<string[][]> {
  return Promise.all(list.map(async (m) => [await balanceOf(t.app, m, SD), await balanceOf(t.app, m, SN)]));
}

const transferSpec = fc.record({
  from: fc.integer({ min: 0, max: 2 }),
  to: fc.integer({ min: 0, max: 3 }),
  currencyId: fc.constantFrom(SD, SN),
  // '1.005' breaks the precision of both currencies (above the wire's minimum, so both paths reach the
  // transfer's own check).
  amount: fc.constantFrom('1', '2.5', '4', '1.005'),
});

describe('transfers written in one batch', () => {
  it('end exactly as the same transfers sent one by one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(transferSpec, { minLength: 1, maxLength: 12 }), async (specs: TransferSpec[]) => {
        const one = await members();
        const sequential: unknown[] = [];
        for (const spec of specs) {
          const res = await call(t.app, one[spec.from]?.token, 'POST', '/api/bank/p2pTransfer', {
            recipientNickName: nicknameOf(one, spec.to),
            currencyId: spec.currencyId,
            amount: spec.amount,
          });
          const body = res.json<{ message: string; senderUser?: { nickname: string } }>();
          sequential.push([res.statusCode, generic(body.message, one)]);
        }

        const two = await members();
        const jobs: TransferJob[] = specs.map((t) => {
          const m = two[t.from] as Member;
          return {
            sender: { id: m.id, nickname: m.nickname, role: 'user' },
            input: {
              recipientNickName: nicknameOf(two, t.to),
              currencyId: t.currencyId,
              amount: parseAmount(t.amount) as Amount,
            },
          };
        });
        const outcomes = await inTransaction(t.built.database.db, (tx) => p2pTransfers(tx, jobs, new LiveChanges()));
        const batched = outcomes.map((o) => {
          if (o.ok) return [200, generic(o.value.message, two)];
          expect(o.error).toBeInstanceOf(AppError);
          const e = o.error as AppError;
          const status = { CONFLICT: 409, NOT_FOUND: 404, VALIDATION: 400 }[e.code as string];
          return [status, generic(e.message, two)];
        });

        expect(batched).toEqual(sequential);
        expect(await balances(two)).toEqual(await balances(one));
      }),
      { numRuns: 12 },
    );
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('does not let two members with nothing pay each other in one batch', async () => {
    const a = await registerMember(t.app, 'bt');
    const b = await registerMember(t.app, 'bt');
    const rich = await registerMember(t.app, 'bt');
    await mint(t.app, t.admin, rich.nickname, SN, '10');
    const job = (from: Member, to: Member, amount: string): TransferJob => ({
      sender: { id: from.id, nickname: from.nickname, role: 'user' },
      input: { recipientNickName: to.nickname, currencyId: SN, amount: parseAmount(amount) as Amount },
    });
    const outcomes = await inTransaction(t.built.database.db, (tx) =>
      p2pTransfers(tx, [job(a, b, '5'), job(b, a, '5'), job(rich, a, '4'), job(a, b, '3')], new LiveChanges()),
    );
    expect(outcomes.map((o) => (o.ok ? o.value.message : (o.error as Error).message))).toEqual([
      'Insufficient funds',
      'Insufficient funds',
      `Sent 4.00 SN to ${a.nickname}`,
      `Sent 3.00 SN to ${b.nickname}`,
    ]);
    // The sender's answer carries their balances after the batch.
    const last = outcomes[3];
    expect(last?.ok && last.value.senderUser.balances).toEqual([{ currencyId: SN, amount: '1.00' }]);
    expect(await balanceOf(t.app, a, SN)).toBe('1');
    expect(await balanceOf(t.app, b, SN)).toBe('3');
    expect(await balanceOf(t.app, rich, SN)).toBe('6');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('a batch whose posting fails runs again one by one: only the faulty transfer fails, none is written twice', async () => {
    // The COMMIT goes out behind the batch's posting; when the posting fails, the database answers it
    // with ROLLBACK, and group commit runs the batch's transfers again one by one.
    const senders = await Promise.all(Array.from({ length: 8 }, () => registerMember(t.app, 'bp')));
    const to = await registerMember(t.app, 'bp');
    for (const s of senders) await mint(t.app, t.admin, s.nickname, SN, '5');
    const db = t.built.database.db;
    // A ledger row the database refuses: the one transfer with this note (as a fault the batch's checks
    // cannot see).
    await db.execute(sql`CREATE OR REPLACE FUNCTION test_refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'poisoned row'; END $$`);
    await db.execute(sql`CREATE TRIGGER test_refuse_poison BEFORE INSERT ON bank_transactions FOR EACH ROW
      WHEN (NEW.note = 'poison') EXECUTE FUNCTION test_refuse_poison()`);
    try {
      const answers = await Promise.all(
        senders.map((s, i) =>
          call(t.app, s.token, 'POST', '/api/bank/p2pTransfer', {
            recipientNickName: to.nickname,
            currencyId: SN,
            amount: '1',
            note: i === 3 ? 'poison' : 'batched',
          }),
        ),
      );
      expect(answers.map((r) => r.statusCode)).toEqual(senders.map((_, i) => (i === 3 ? 500 : 200)));
    } finally {
      await db.execute(sql`DROP TRIGGER test_refuse_poison ON bank_transactions`);
      await db.execute(sql`DROP FUNCTION test_refuse_poison()`);
    }
    const balancesNow = await Promise.all(senders.map((s) => balanceOf(t.app, s, SN)));
    expect(balancesNow).toEqual(senders.map((_, i) => (i === 3 ? '5' : '4')));
    expect(await balanceOf(t.app, to, SN)).toBe('7');
    const rows = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM bank_transactions WHERE recipient_id = ${to.id} AND category = 3`,
    );
    expect(rows.rows[0]?.n).toBe(7);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
