/**
 * A member's withdrawal addresses and the "allowed addresses only" switch (DESIGN §11.2): an address is
 * confirmed by a mailed link and usable `WITHDRAW_ADDRESS_HOLD_HOURS` later; with the switch on, a
 * withdrawal goes only to an active address. After a security change withdrawals pause for
 * `SECURITY_HOLD_HOURS`.
 */
import { z } from 'zod';
import { currencyId, nickname, objectId, walletAddress } from './common.ts';
import { stepUpCode } from './mfa.ts';

/** An address's life: mailed and not yet confirmed, confirmed and waiting out the hold, usable. */
export const WITHDRAW_ADDRESS_STATES = ['unconfirmed', 'waiting', 'active'] as const;
export type WithdrawAddressState = (typeof WITHDRAW_ADDRESS_STATES)[number];

/** Most addresses a member keeps. */
export const MAX_WITHDRAW_ADDRESSES = 20;

/** One saved address: `activeFrom` is null until its link is confirmed. */
export const withdrawAddress = z.object({
  _id: objectId,
  currencyId: z.number().int(),
  walletAddress: z.string(),
  label: z.string(),
  state: z.enum(WITHDRAW_ADDRESS_STATES),
  activeFrom: z.string().nullable(),
  createdAt: z.string(),
});
export type WithdrawAddress = z.infer<typeof withdrawAddress>;

/** `withdrawAddresses {}`: the member's own; the admin's `getUserWithdrawAddresses {nickname}` shows a member's. */
export const withdrawAddressesRequest = z.strictObject({});
export const userWithdrawAddressesRequest = z.strictObject({ nickname });

/**
 * `{addresses, allowListOnly, message}`, newest first. Ours beyond DESIGN's shape: `allowListOffFrom`, when
 * the switch was turned off and is still on until then; `withdrawalsPausedUntil`, the end of a security
 * hold, so the Withdraw popup can say so before it is filled in.
 */
export const withdrawAddressesResponse = z.object({
  addresses: z.array(withdrawAddress),
  allowListOnly: z.boolean(),
  allowListOffFrom: z.string().nullable(),
  withdrawalsPausedUntil: z.string().nullable(),
  message: z.string(),
});
export type WithdrawAddressesResponse = z.infer<typeof withdrawAddressesResponse>;

/** `addWithdrawAddress {currencyId, walletAddress, label, mfaCode?}` -> `{address, message}`; a link is mailed. */
export const addWithdrawAddressRequest = z.strictObject({
  currencyId,
  walletAddress,
  label: z.string().trim().min(1).max(40),
  mfaCode: stepUpCode,
});
export type AddWithdrawAddressRequest = z.input<typeof addWithdrawAddressRequest>;
export type AddWithdrawAddressInput = z.output<typeof addWithdrawAddressRequest>;
export const withdrawAddressResponse = z.object({ address: withdrawAddress, message: z.string() });
export type WithdrawAddressResponse = z.infer<typeof withdrawAddressResponse>;

/** `confirmWithdrawAddress {token}`: the mailed link's token, used once. */
export const confirmWithdrawAddressRequest = z.strictObject({ token: z.string().min(20).max(255) });

/** `removeWithdrawAddress {_id}` -> `{message}`. */
export const removeWithdrawAddressRequest = z.strictObject({ _id: objectId });

/** `setAllowListOnly {on, mfaCode?}` -> the list as `withdrawAddresses` answers it; off waits the hold. */
export const setAllowListOnlyRequest = z.strictObject({ on: z.boolean(), mfaCode: stepUpCode });
export type SetAllowListOnlyRequest = z.input<typeof setAllowListOnlyRequest>;
