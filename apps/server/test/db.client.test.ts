/**
 * The embedded database (DESIGN §1): with no DATABASE_URL the server runs on PGlite with the same
 * migrations. A smoke flow of the bank must pass there as on PostgreSQL.
 */
import type { Currency, TransactionsResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  balanceOf,
  call,
  expectLedgerBalanced,
  makePgliteApp,
  mint,
  registerMember,
  sqlStateOf,
  uniqueNick,
  useTestApp,
} from './helpers.ts';

const t = useTestApp({}, { build: makePgliteApp });

describe('the embedded database (PGlite)', () => {
  it('is the database in use, migrated and seeded', async () => {
    expect(t.built.database.kind).toBe('pglite');
    const health = await call(t.app, undefined, 'GET', '/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', instance: expect.stringMatching(/\/\d+$/) });
    const res = await call(t.app, undefined, 'GET', '/api/bank/currencies');
    expect(res.statusCode).toBe(200);
    const tickers = res.json<{ currencies: Currency[] }>().currencies.map((c) => c.ticker);
    // The three currencies of SPEC §9, then the synth chips the sale is seeded with (DESIGN §7).
    expect(tickers).toEqual(['SD', 'SN', 'CR', 'ASC']);
  });

  it('runs the bank: mint, taxed transfer, refusals, histories and the audit', async () => {
    const a = await registerMember(t.app, 'lite');
    const b = await registerMember(t.app, 'lite');
    await mint(t.app, t.admin, a.nickname, 1, '100');

    const sent = await call(t.app, a.token, 'POST', '/api/bank/p2pTransfer', {
      recipientNickName: b.nickname,
      currencyId: 1,
      amount: '12.34',
      note: 'on PGlite',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().message).toBe(`Sent 12.21 SD to ${b.nickname} (tax 0.13 SD)`);
    expect(await balanceOf(t.app, a, 1)).toBe('87.66');
    expect(await balanceOf(t.app, b, 1)).toBe('12.21');

    // Refusals map to the same statuses as on PostgreSQL (the CHECK constraint becomes a 409).
    const broke = await call(t.app, b.token, 'POST', '/api/bank/p2pTransfer', {
      recipientNickName: a.nickname,
      currencyId: 1,
      amount: '500',
    });
    expect(broke.statusCode).toBe(409);
    expect(broke.json()).toEqual({ message: 'Insufficient funds' });
    const none = await call(t.app, b.token, 'POST', '/api/bank/p2pTransfer', {
      recipientNickName: a.nickname,
      currencyId: 2,
      amount: '1',
    });
    expect(none.statusCode).toBe(409);
    const ghost = await call(t.app, a.token, 'POST', '/api/bank/p2pTransfer', {
      recipientNickName: uniqueNick('ghost'),
      currencyId: 1,
      amount: '1',
    });
    expect(ghost.statusCode).toBe(404);

    const ha = await call(t.app, a.token, 'POST', '/api/bank/transactions', { paging: { limit: 10, page: 1 } });
    expect(ha.statusCode).toBe(200);
    const rows = ha.json<TransactionsResponse>();
    expect(rows.total).toBe(3);
    expect(rows.txs.map((t) => [t.category, t.balance.amount, t.recipient?.nickname ?? null])).toEqual([
      [4, '0.13', 'admin'],
      [3, '12.21', b.nickname],
      [10, '100.00', a.nickname],
    ]);
    const hb = await call(t.app, b.token, 'POST', '/api/bank/transactions', { paging: { limit: 10, page: 1 } });
    expect(hb.json<TransactionsResponse>().txs.map((t) => t.note)).toEqual(['on PGlite']);
    const all = await call(t.app, t.admin.token, 'POST', '/api/bank/alltransactions', {
      paging: { limit: 10, page: 1 },
      nickname: b.nickname,
    });
    expect(all.json<TransactionsResponse>().total).toBe(1);

    const audit = await expectLedgerBalanced(t.app, t.admin);
    expect(audit.currencies.find((c) => c.currencyId === 1)).toMatchObject({ issued: '100.00', balances: '100.00' });
  });

  it('serializes concurrent transfers: exactly what the balance covers goes through', async () => {
    const a = await registerMember(t.app, 'lite');
    const b = await registerMember(t.app, 'lite');
    await mint(t.app, t.admin, a.nickname, 2, '100');
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        call(t.app, a.token, 'POST', '/api/bank/p2pTransfer', {
          recipientNickName: b.nickname,
          currencyId: 2,
          amount: '10',
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 409)).toHaveLength(20);
    expect(await balanceOf(t.app, a, 2)).toBe('0');
    expect(await balanceOf(t.app, b, 2)).toBe('100');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('creates currencies, distributes and replays idempotent requests', async () => {
    const created = await call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', {
      ticker: 'LITE',
      name: 'Lite Coin',
      precision: 0,
      canDeposit: false,
      canWithdraw: false,
      canTransfer: true,
      canMint: true,
      canBurn: true,
    });
    expect(created.statusCode, created.body).toBe(200);
    const lite = created.json<{ currency: Currency }>().currency;
    // After SD, SN, CR and the seeded ASC.
    expect(lite.currencyId).toBe(5);

    const sender = await registerMember(t.app, 'lite');
    const x = await registerMember(t.app, 'lite');
    const y = await registerMember(t.app, 'lite');
    await mint(t.app, t.admin, sender.nickname, 2, '10');
    await mint(t.app, t.admin, x.nickname, lite.currencyId, '1');
    await mint(t.app, t.admin, y.nickname, lite.currencyId, '3');
    const dist = await call(t.app, sender.token, 'POST', '/api/bank/distributeCurrency', {
      currencyId: 2,
      amount: '10',
      targetCurrencyId: lite.currencyId,
    });
    expect(dist.statusCode, dist.body).toBe(200);
    // 10 x 1/4 = 2.5 -> 2; 10 x 3/4 = 7.5 -> 7; 1 stays.
    expect(await balanceOf(t.app, x, 2)).toBe('2');
    expect(await balanceOf(t.app, y, 2)).toBe('7');
    expect(await balanceOf(t.app, sender, 2)).toBe('1');

    const key = { 'idempotency-key': 'pglite-once' };
    const body = { recipientNickName: x.nickname, currencyId: 2, amount: '1' };
    const first = await call(t.app, sender.token, 'POST', '/api/bank/p2pTransfer', body, key);
    const again = await call(t.app, sender.token, 'POST', '/api/bank/p2pTransfer', body, key);
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(again.body).toBe(first.body);
    expect(await balanceOf(t.app, sender, 2)).toBe('0');
    expect(await balanceOf(t.app, x, 2)).toBe('3');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('applies the ledger constraints too: foreign keys and the append-only trigger', async () => {
    const db = t.built.database.db;
    const refused = (statement: ReturnType<typeof sql>) => sqlStateOf(() => db.execute(statement));
    expect(await refused(sql`INSERT INTO balances (user_id, currency_id, amount) VALUES ('nobody', 1, 1)`)).toBe(
      '23503',
    );
    const a = await registerMember(t.app, 'lite');
    await mint(t.app, t.admin, a.nickname, 1, '3');
    expect(await refused(sql`UPDATE bank_transactions SET amount = 9 WHERE recipient_id = ${a.id}`)).toBe('23001');
    expect(await refused(sql`DELETE FROM bank_transactions WHERE recipient_id = ${a.id}`)).toBe('23001');
    expect(await balanceOf(t.app, a, 1)).toBe('3');
    await expectLedgerBalanced(t.app, t.admin);
  });
});
