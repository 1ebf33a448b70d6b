/** Request and response schemas of the user routes (SPEC §7 User, DESIGN §3 wire shapes). */
import { z } from 'zod';
import { decimalString, email, nickname, objectId, strongPassword } from './common.ts';

export const balance = z.object({ currencyId: z.number().int(), amount: decimalString });

/** DESIGN §3 `User`: never a password hash, never an API key. */
export const user = z.object({
  _id: objectId,
  nickname: z.string(),
  email: z.string().nullable(),
  role: z.string(),
  primaryWallet: z.string().nullable(),
  isActive: z.boolean(),
  isWalletOnly: z.boolean(),
  isEmailVerified: z.boolean(),
  isAnonymous: z.boolean(),
  referrer: z.string().nullable(),
  fame: z.number(),
  balances: z.array(balance),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof user>;

export const registerRequest = z.strictObject({
  nickname,
  email,
  password: strongPassword,
  referrer: nickname.optional(),
});
export type RegisterRequest = z.input<typeof registerRequest>;
/** `register` as the server receives it, parsed. */
export type RegisterInput = z.output<typeof registerRequest>;

export const loginRequest = z.strictObject({
  nickOrEmail: z.string().min(3).max(255),
  password: z.string().min(1).max(255),
  cAppAuthRequest: z.string().optional(),
});
export type LoginRequest = z.input<typeof loginRequest>;
/** `login` as the server receives it, parsed. */
export type LoginInput = z.output<typeof loginRequest>;

export const authResponse = z.object({ user, token: z.string(), message: z.string() });
export type AuthResponse = z.infer<typeof authResponse>;

export const meResponse = z.object({ user, message: z.string() });

/** `updateProfile`: this issue covers `isAnonymous` (the Private checkbox). */
export const updateProfileRequest = z.strictObject({ isAnonymous: z.boolean() });
export type UpdateProfileRequest = z.infer<typeof updateProfileRequest>;
export const updateProfileResponse = z.object({ user, message: z.string() });
