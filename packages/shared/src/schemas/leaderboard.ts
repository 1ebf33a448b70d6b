/** The leaderboard (DESIGN §6; SPEC §2 Leaderboard, §5, §9: currencies 1 SD, 2 SN, 3 Credits). */
import { z } from 'zod';
import { currencyId } from './common.ts';

/** `POST /api/user/leaderboard {currencyId}` (token optional). */
export const leaderboardRequest = z.strictObject({ currencyId });
export type LeaderboardRequest = z.infer<typeof leaderboardRequest>;

/** One ranked holder: `amount` at the currency's precision; a private member is `Anonymous` to others. */
export const leader = z.object({
  /** 1-based rank (ours, beyond DESIGN's shape). */
  rank: z.number().int(),
  nickname: z.string(),
  amount: z.string(),
});
export type Leader = z.infer<typeof leader>;

/**
 * DESIGN §6: `{leaders, position, message}`, the top 100 and the caller's 1-based rank (null when signed
 * out or holding nothing). Ours beyond it: the caller's `balance`, and `around`, the five holders above
 * and below the caller with the caller's own row (empty when unranked).
 */
export const leaderboardResponse = z.object({
  leaders: z.array(leader),
  position: z.number().int().nullable(),
  balance: z.string().nullable(),
  around: z.array(leader),
  message: z.string(),
});
export type LeaderboardResponse = z.infer<typeof leaderboardResponse>;
