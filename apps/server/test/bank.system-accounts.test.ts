/**
 * The system accounts (`users.is_system`: the chip sale's) never receive a transfer: a p2pTransfer to one
 * is refused with a clear message and moves nothing, and a distribution leaves them out of the holders.
 */
import type { User } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SALE_NICKNAME } from '../src/modules/accounts/accounts.public.ts';
import { bankCalls } from './bank.helpers.ts';
import { amountValue, balanceOf, call, expectLedgerBalanced, mint, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const { newCurrency } = bankCalls(t);

/** The sale account's balance of a currency, read from the database, in the fewest decimals ("0" when none). */
async function saleBalance(currencyId: number): Promise<string> {
  const res = await t.built.database.db.execute<{ amount: string }>(
    sql`SELECT coalesce(sum(b.amount), 0)::text AS amount FROM balances b JOIN users u ON u.id = b.user_id
        WHERE lower(u.nickname) = ${SALE_NICKNAME} AND b.currency_id = ${currencyId}`,
  );
  return amountValue(String(res.rows[0]?.amount)) ?? '';
}

describe('transfers to a system account', () => {
  it('refuses a p2pTransfer to the chip sale, whatever the case, and moves nothing', async () => {
    const sender = await registerMember(t.app, 'tosys');
    await mint(t.app, t.admin, sender.nickname, 2, '50');
    const before = await saleBalance(2);
    for (const recipientNickName of [SALE_NICKNAME, SALE_NICKNAME.toUpperCase()]) {
      const res = await call(t.app, sender.token, 'POST', '/api/bank/p2pTransfer', {
        recipientNickName,
        currencyId: 2,
        amount: '10',
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(`You cannot send to ${SALE_NICKNAME}: it is a system account`);
    }
    expect(await balanceOf(t.app, sender, 2)).toBe('50');
    expect(await saleBalance(2)).toBe(before);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('leaves the system accounts out of a distribution', async () => {
    const target = await newCurrency({ precision: 0 });
    const sender = await registerMember(t.app, 'dsys');
    const holder = await registerMember(t.app, 'dhold');
    await mint(t.app, t.admin, sender.nickname, 2, '100');
    await mint(t.app, t.admin, holder.nickname, target.currencyId, '1');
    await mint(t.app, t.admin, SALE_NICKNAME, target.currencyId, '3');
    const before = await saleBalance(2);
    const res = await call(t.app, sender.token, 'POST', '/api/bank/distributeCurrency', {
      currencyId: 2,
      amount: '10',
      targetCurrencyId: target.currencyId,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ senderUser: User; recipients: number; distributed: string }>();
    expect(body.recipients).toBe(1);
    expect(await balanceOf(t.app, holder, 2)).toBe('10');
    expect(await balanceOf(t.app, sender, 2)).toBe('90');
    expect(await saleBalance(2)).toBe(before);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
