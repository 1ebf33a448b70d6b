/** The Credits store (DESIGN §7; SPEC §2 /checkout, Checkout Control, Checkout Logs; §4; §5; §7 Checkout). */
import { z } from 'zod';
import { CREDITS_CURRENCY_ID } from '../tables.ts';
import {
  amountInput,
  description,
  INT32_MAX,
  isoDate,
  name,
  nickname,
  objectId,
  paging,
  totalCapped,
  url,
  usdInput,
} from './common.ts';

/** SPEC §5 package item: type 1 or 2, amount at least 1. */
export const packageItem = z.strictObject({
  type: z.union([z.literal(1), z.literal(2)]),
  amount: z.number().int().min(1).max(INT32_MAX),
});

/** A payment provider's id (DESIGN §7): 1 crypto, 2 card. */
const providerId = z.union([z.literal(1), z.literal(2)]);

/** DESIGN §7 Package: `cost` US dollars with 2 decimals, `amount` Credits at their precision. */
export const checkoutPackage = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  imgUrl: z.string(),
  cost: z.string(),
  currency: z.object({ currencyId: z.number().int(), amount: z.string() }),
  amount: z.string(),
  items: z.array(z.object({ type: z.number().int(), amount: z.number().int() })),
  active: z.boolean(),
  published: z.boolean(),
  createdAt: z.string(),
});
export type CheckoutPackage = z.infer<typeof checkoutPackage>;

/**
 * Admin `packages/create {name, description, cost, amount, currency?, imgUrl?, items?, active?}`:
 * `currency` may only be 3 (SPEC §5 client forms: "Package create always uses currency id 3").
 */
export const createPackageRequest = z.strictObject({
  name,
  description,
  cost: usdInput,
  amount: amountInput,
  currency: z.literal(CREDITS_CURRENCY_ID).optional(),
  imgUrl: z.union([url, z.literal('')]).optional(),
  items: z.array(packageItem).max(10).optional(),
  active: z.boolean().optional(),
});
export type CreatePackageRequest = z.input<typeof createPackageRequest>;
export type CreatePackageInput = z.output<typeof createPackageRequest>;

/** `packages/delete {objectId}` and `packages/publish {objectId}`. */
export const packageIdRequest = z.strictObject({ objectId });
export type PackageIdRequest = z.infer<typeof packageIdRequest>;
/** `packages/setactive {objectId, flag}` (SPEC §5 "Set object flag"). */
export const setPackageActiveRequest = z.strictObject({ objectId, flag: z.boolean() });
export type SetPackageActiveRequest = z.infer<typeof setPackageActiveRequest>;

export const packageResponse = z.object({ package: checkoutPackage, message: z.string() });
export type PackageResponse = z.infer<typeof packageResponse>;
/**
 * `packages/fetch` -> `{packages, providers, message}`. `providers` (ours, beyond DESIGN §7's shape):
 * the provider ids a purchase can use now, ascending; empty when no payment provider is configured
 * (no provider settings and the sandbox off), so the store can say so instead of offering Buy.
 */
export const packagesResponse = z.object({
  packages: z.array(checkoutPackage),
  providers: z.array(providerId),
  message: z.string(),
});
export type PackagesResponse = z.infer<typeof packagesResponse>;

/** DESIGN §7 Checkout; `ip` as SPEC §3 lists it. */
export const checkout = z.object({
  _id: z.string(),
  createdAt: z.string(),
  user: z.object({ nickname: z.string() }),
  package: z.object({ _id: z.string(), name: z.string(), cost: z.string() }),
  checkoutProvider: z.number().int(),
  refId: z.string(),
  ip: z.string(),
  state: z.number().int(),
  /** Credits this purchase grants (ours, beyond DESIGN's shape). */
  amount: z.string(),
  /** Credits a refund could not take back because they were spent (ours). */
  owed: z.string(),
  eventHistory: z.array(z.object({ eventType: z.string(), dateReceived: z.string() })),
});
export type Checkout = z.infer<typeof checkout>;

/** `buyPackage {packageId, providerId}` -> `{link, checkout, message}`: the provider's payment page. */
export const buyPackageRequest = z.strictObject({
  packageId: objectId,
  providerId,
});
export type BuyPackageRequest = z.infer<typeof buyPackageRequest>;
export const buyPackageResponse = z.object({ link: z.string(), checkout, message: z.string() });
export type BuyPackageResponse = z.infer<typeof buyPackageResponse>;

const checkoutState = z.union(
  [1, 3, 5, 6, 8, 9].map((s) => z.literal(s)) as [z.ZodLiteral<number>, ...z.ZodLiteral<number>[]],
);

/** `getTransactions {paging, filters{startDate, endDate, state}}`: the caller's checkouts, newest first. */
export const getCheckoutsRequest = z.strictObject({
  paging,
  filters: z
    .strictObject({ startDate: isoDate.optional(), endDate: isoDate.optional(), state: checkoutState.optional() })
    .optional(),
});
export type GetCheckoutsRequest = z.infer<typeof getCheckoutsRequest>;

/** Admin `getAllTransactions {paging, filters}` (SPEC §2 Checkout Logs filters). */
export const getAllCheckoutsRequest = z.strictObject({
  paging,
  filters: z
    .strictObject({
      nickname: nickname.optional(),
      startDate: isoDate.optional(),
      endDate: isoDate.optional(),
      state: checkoutState.optional(),
      checkoutProvider: z.union([z.literal(1), z.literal(2)]).optional(),
      refId: z.string().min(1).max(255).optional(),
      package: objectId.optional(),
    })
    .optional(),
});
export type GetAllCheckoutsRequest = z.infer<typeof getAllCheckoutsRequest>;

export const checkoutsResponse = z.object({
  transactions: z.array(checkout),
  total: z.number().int(),
  totalCapped,
  message: z.string(),
});
export type CheckoutsResponse = z.infer<typeof checkoutsResponse>;

/**
 * The sandbox provider's actions (DESIGN §7): what its page's buttons send (Pay, Fail, Delay), and ours
 * beyond DESIGN, `refund`: the full refund a real provider can send after a payment.
 */
export const SANDBOX_ACTIONS = ['pay', 'fail', 'delay', 'refund'] as const;
export type SandboxAction = (typeof SANDBOX_ACTIONS)[number];
