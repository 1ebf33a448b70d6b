/** The leaderboard (DESIGN §6; SPEC §2 Leaderboard): the top holders of a currency and the caller's rank. */
import { formatAtPrecision, fromNumeric, type Leader, type LeaderboardResponse } from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { requireCurrency } from '../bank/currencies.service.ts';
import { findRanked } from './leaderboard.queries.ts';

/** DESIGN §6: the top 100 holders. */
const TOP = 100;
/** Ours: the holders shown above and below the caller ("around me"). */
const AROUND = 5;

/**
 * `leaderboard {currencyId}` for `viewer` (null when signed out): `{leaders, position, balance, around,
 * message}`, amounts at the currency's precision, private members as `Anonymous` to others. Throws
 * NOT_FOUND `Currency not found`.
 */
export async function leaderboard(db: Db, currencyId: number, viewer: AuthUser | null): Promise<LeaderboardResponse> {
  const currency = await requireCurrency(db, currencyId);
  const rows = await findRanked(db, currency.currencyId, viewer?.id ?? null, TOP, AROUND);
  const toLeader = (r: (typeof rows)[number]): Leader => ({
    rank: Number(r.rank),
    nickname: r.nickname,
    amount: formatAtPrecision(fromNumeric(r.amount), currency.precision),
  });
  const own = rows.find((r) => r.mine);
  const position = own ? Number(own.rank) : null;
  const leaders = rows.filter((r) => Number(r.rank) <= TOP).map(toLeader);
  const around =
    position === null ? [] : rows.filter((r) => Math.abs(Number(r.rank) - position) <= AROUND).map(toLeader);
  return {
    leaders,
    position,
    balance: own ? toLeader(own).amount : null,
    around,
    message:
      leaders.length === 0 ? `No ${currency.ticker} holders yet` : `Top ${leaders.length} ${currency.ticker} holders`,
  };
}
