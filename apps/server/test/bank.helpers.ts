/** Helpers of the bank's API tests: fresh currencies, transfers, burns, histories and log rows. */
import { randomBytes } from 'node:crypto';
import type { CreateCurrencyRequest, Currency, Transaction, TransactionsResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { call, type Member, type TestApp } from './helpers.ts';

/** A fresh ticker (SPEC §5: alphanumeric 2 to 7). */
export function uniqueTicker(): string {
  return `T${randomBytes(3).toString('hex').toUpperCase()}`;
}

/** A valid createCurrency body (transferable, mintable, burnable, precision 2) with a fresh ticker. */
export function currencyBody(overrides: Partial<CreateCurrencyRequest> = {}): CreateCurrencyRequest {
  return {
    ticker: uniqueTicker(),
    name: 'Test Coin',
    precision: 2,
    canDeposit: false,
    canWithdraw: false,
    canTransfer: true,
    canMint: true,
    canBurn: true,
    ...overrides,
  };
}

/** Rows as `category amount sender->recipient` for compact assertions. */
export function describeTxs(txs: Transaction[]): string[] {
  return txs.map(
    (tx) =>
      `${tx.category} ${tx.balance.amount} ${tx.sender?.nickname ?? 'system'}->${tx.recipient?.nickname ?? 'system'}`,
  );
}

/** The bank calls of a test file's app `t` (read when called, so after `useTestApp`'s `beforeAll`). */
export function bankCalls(t: TestApp) {
  /** Creates a fresh currency as the admin, so a test can freeze or tax it without touching others. */
  async function newCurrency(overrides: Partial<CreateCurrencyRequest> = {}): Promise<Currency> {
    const res = await call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', currencyBody(overrides));
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ currency: Currency }>().currency;
  }

  function transfer(
    from: Member,
    to: string,
    currencyId: number,
    amount: string | number,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    return call(
      t.app,
      from.token,
      'POST',
      '/api/bank/p2pTransfer',
      { recipientNickName: to, currencyId, amount, ...extra },
      headers,
    );
  }

  function burn(to: string, currencyId: number, amount: string, note = 'test burn') {
    return call(t.app, t.admin.token, 'POST', '/api/bank/burn', { recipientNickName: to, currencyId, amount, note });
  }

  async function history(member: Member, filters: Record<string, unknown> = {}): Promise<TransactionsResponse> {
    const res = await call(t.app, member.token, 'POST', '/api/bank/transactions', {
      paging: { limit: 50, page: 1 },
      ...filters,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TransactionsResponse>();
  }

  async function allHistory(filters: Record<string, unknown> = {}): Promise<TransactionsResponse> {
    const res = await call(t.app, t.admin.token, 'POST', '/api/bank/alltransactions', {
      paging: { limit: 50, page: 1 },
      ...filters,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TransactionsResponse>();
  }

  async function listCurrencies(): Promise<Currency[]> {
    const res = await call(t.app, undefined, 'GET', '/api/bank/currencies');
    expect(res.statusCode).toBe(200);
    return res.json<{ currencies: Currency[] }>().currencies;
  }

  async function adminLogs(
    where: ReturnType<typeof sql>,
  ): Promise<Array<{ category: number; admin_id: string; affected_user_id: string | null; action: string }>> {
    const res = await t.built.database.db.execute(
      sql`SELECT category, admin_id, affected_user_id, action FROM admin_logs WHERE ${where} ORDER BY created_at, id`,
    );
    return res.rows as Array<{ category: number; admin_id: string; affected_user_id: string | null; action: string }>;
  }

  return { newCurrency, transfer, burn, history, allHistory, listCurrencies, adminLogs };
}
