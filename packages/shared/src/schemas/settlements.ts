/** Deposits and withdrawals settled by an admin (DESIGN §8 "Deposit and withdraw"; SPEC §7 Bank, §5). */
import { z } from 'zod';
import { amountInput, currencyId, note, objectId, paging, reference, totalCapped, walletAddress } from './common.ts';
import { stepUpCode } from './mfa.ts';
import { user } from './user.ts';

export const SETTLEMENT_KINDS = ['deposit', 'withdrawal'] as const;
export const SETTLEMENT_STATES = ['pending', 'approved', 'refused'] as const;

/** DESIGN §8 Settlement: amounts are decimal strings at the currency's precision. */
export const settlement = z.object({
  _id: z.string(),
  kind: z.enum(SETTLEMENT_KINDS),
  user: z.object({ nickname: z.string() }),
  currencyId: z.number().int(),
  amount: z.string(),
  /** The withdrawal tax charged when it was opened ("0…" for deposits); ours, beyond DESIGN's shape. */
  tax: z.string(),
  walletAddress: z.string(),
  reference: z.string(),
  state: z.enum(SETTLEMENT_STATES),
  /** The admin's note when it was settled (empty while pending). */
  note: z.string(),
  createdAt: z.string(),
  settledAt: z.string().nullable(),
});
export type Settlement = z.infer<typeof settlement>;

/** `withdraw {currencyId, amount, walletAddress}` -> `{senderUser, settlement, message}`. */
/** `mfaCode`: the step-up a withdrawal needs when the account has a second factor (DESIGN §11.1). */
export const withdrawRequest = z.strictObject({ currencyId, amount: amountInput, walletAddress, mfaCode: stepUpCode });
export type WithdrawRequest = z.input<typeof withdrawRequest>;
export type WithdrawInput = z.output<typeof withdrawRequest>;
export const withdrawResponse = z.object({ senderUser: user, settlement, message: z.string() });
export type WithdrawResponse = z.infer<typeof withdrawResponse>;

/**
 * `deposit {currencyId, amount, walletAddress, reference}` -> `{settlement, message}`: a claim. The
 * reference is trimmed (kept as typed otherwise); one pending or approved claim per currency and
 * reference, compared without case (DESIGN §8, settlements.service.ts).
 */
export const depositRequest = z.strictObject({
  currencyId,
  amount: amountInput,
  walletAddress,
  reference: reference.trim().min(1),
});
export type DepositRequest = z.input<typeof depositRequest>;
export type DepositInput = z.output<typeof depositRequest>;
export const depositResponse = z.object({ settlement, message: z.string() });
export type DepositResponse = z.infer<typeof depositResponse>;

/** Admin: `getSettlements {paging, kind?, state?}` -> `{settlements, total, message}`, pending first. */
export const getSettlementsRequest = z.strictObject({
  paging,
  kind: z.enum(SETTLEMENT_KINDS).optional(),
  state: z.enum(SETTLEMENT_STATES).optional(),
});
export type GetSettlementsRequest = z.infer<typeof getSettlementsRequest>;
export const getSettlementsResponse = z.object({
  settlements: z.array(settlement),
  total: z.number().int(),
  totalCapped,
  message: z.string(),
});
export type GetSettlementsResponse = z.infer<typeof getSettlementsResponse>;

/** Admin: `settle {settlementId, approve, note}` -> `{settlement, message}`; a settlement settles once. */
export const settleRequest = z.strictObject({ settlementId: objectId, approve: z.boolean(), note });
export type SettleRequest = z.infer<typeof settleRequest>;
export const settleResponse = z.object({ settlement, message: z.string() });
export type SettleResponse = z.infer<typeof settleResponse>;
