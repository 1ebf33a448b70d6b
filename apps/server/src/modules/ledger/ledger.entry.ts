/** The ledger's unit of posting (DESIGN §4): what `postEntries` writes and a batch's balances apply. */
import type { Amount, TxCategory } from '@starlight/shared';

/** One movement of money: a ledger row. `senderId`/`recipientId` null = the system (or escrow). */
export interface Entry {
  /** One of TX_CATEGORY's: the Tnx Logs' currency filter reads the ledger category by category. */
  category: TxCategory;
  currencyId: number;
  /** Positive Amount in 10^-9 units. */
  amount: Amount;
  executorId: string | null;
  senderId: string | null;
  recipientId: string | null;
  /** True when the null side is escrow held for `reference` rather than the system (DESIGN §4). */
  escrow?: boolean;
  note?: string;
  reference?: string | null;
}
