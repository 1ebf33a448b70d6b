/**
 * The ledger's posting names its parties in the live changes: every sender, recipient
 * and executor of the posted rows, so no path (a mint, a settlement, an admin's payout) has to remember
 * the executor for their kept history totals (history.totals.ts). A refused posting names nobody.
 */
import { AppError, amount, TX_CATEGORY } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { LiveChanges } from '../src/lib/live-changes.ts';
import { postEntries } from '../src/modules/ledger/ledger.posting.ts';
import { bankCalls } from './bank.helpers.ts';
import { balanceOf, expectLedgerBalanced, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const bank = bankCalls(t);
const db = () => t.built.database.db;

describe('a posting', () => {
  it('names every sender, recipient and executor of its rows, and nobody when it is refused', async () => {
    const coin = await bank.newCurrency({});
    const carol = await registerMember(t.app, 'lcc');
    const dave = await registerMember(t.app, 'lcd');
    const mint = {
      category: TX_CATEGORY.Mint,
      currencyId: coin.currencyId,
      amount: amount(5_000_000_000n),
      executorId: t.admin.id,
      senderId: null,
      recipientId: carol.id,
      note: 'minted by an admin who neither sends nor receives',
    };
    const posted = new LiveChanges();
    await db().transaction((tx) => postEntries(tx, [mint], posted));
    expect([...posted.users].sort()).toEqual([t.admin.id, carol.id].sort());

    // Dave holds nothing of `coin`: the debit is refused, nothing is written, and nobody is named.
    const refused = new LiveChanges();
    const overdraw = {
      ...mint,
      category: TX_CATEGORY.Deposit,
      executorId: dave.id,
      senderId: dave.id,
      recipientId: carol.id,
    };
    await expect(db().transaction((tx) => postEntries(tx, [overdraw], refused))).rejects.toBeInstanceOf(AppError);
    expect(refused.isEmpty).toBe(true);
    expect(await balanceOf(t.app, carol, coin.currencyId)).toBe('5');
    expect(await balanceOf(t.app, dave, coin.currencyId)).toBe('0');
    await expectLedgerBalanced(t.app, t.admin);
  });
});
