/** The ledger's unit of posting (DESIGN §4): what `postEntries` writes and a batch's balances apply. */
import type { Amount } from '@starlight/shared';

/** One movement of money: a ledger row. `senderId`/`recipientId` null = the system (or escrow). */
export interface Entry {
  category: number;
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
