/**
 * Seeds the synth chip sale once (DESIGN §7): the system account `synthsale`, the currency ASC
 * (precision 0) with `supply` chips minted to the sale (category 10, through the ledger), and the
 * `Alpha Ships` collection the sale creates ships in. Safe to run on every start and from several
 * processes at once: it runs under the currency-creation lock and does nothing once the sale exists.
 * Reads other modules' tables: `currencies` (whether the chip currency exists yet, under the currency-creation lock).
 */
import {
  ALPHA_SHIPS,
  CHIP_TICKER,
  CREDITS_CURRENCY_ID,
  formatAmount,
  TX_CATEGORY,
  wholeUnits,
} from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { ensureSystemAccount, SALE_NICKNAME } from '../accounts/accounts.public.ts';
import { insertCurrency, lockCurrencyCreation, nextCurrencyId } from '../bank/bank.public.ts';
import { insertCollection } from '../items/items.public.ts';
import { openBalanceRows, postEntries } from '../ledger/ledger.public.ts';
import { findSale } from './chips.queries.ts';

/** Makes the sale when it does not exist yet, with `supply` chips. */
export async function seedChipSale(db: Db, supply: number): Promise<void> {
  const existing = await findSale(db);
  if (existing) {
    // Sales seeded before the row was made at seed time get it now.
    await openBalanceRows(db, existing.saleId, [CREDITS_CURRENCY_ID]);
    return;
  }
  await inTransaction(db, async (tx) => {
    await lockCurrencyCreation(tx);
    if (await findSale(tx)) return;
    const sale = await ensureSystemAccount(tx, SALE_NICKNAME, 'creator');
    const existing = await tx.execute<{ currency_id: number }>(
      sql`SELECT currency_id FROM currencies WHERE upper(ticker) = ${CHIP_TICKER}`,
    );
    if (!existing.rows[0]) {
      const currency = await insertCurrency(tx, {
        currencyId: await nextCurrencyId(tx),
        ticker: CHIP_TICKER,
        name: 'Alpha Synth Chip',
        precision: 0,
        canTransfer: false,
        canMint: false,
        canBurn: false,
      });
      if (supply > 0) {
        await postEntries(
          tx,
          [
            {
              category: TX_CATEGORY.Mint,
              currencyId: currency.currencyId,
              amount: wholeUnits(supply),
              executorId: null,
              senderId: null,
              recipientId: sale.id,
              note: `Synth chip supply: ${formatAmount(wholeUnits(supply), 0)}`,
            },
          ],
          null, // the seed runs before any page is open
        );
      }
    }
    // The sale receives every buyer's Credits: its row exists before the first buyers race (see
    // `openBalanceRows`).
    await openBalanceRows(tx, sale.id, [CREDITS_CURRENCY_ID]);
    await insertCollection(tx, {
      name: ALPHA_SHIPS,
      description: 'Ships drawn from Alpha synth chips',
      imgUrl: '',
      creatorId: sale.id,
      redirectUrls: [],
      cancelUrl: '',
    });
  });
}
