/** Bench members: registered through the API (argon2 makes it the slow part: a few at a time) and funded. */
import { mapLimit } from './api.ts';
import type { BenchContext } from './context.ts';

const MEMBER_PASSWORD = 'Bench-member-9!';

export interface BenchMember {
  nickname: string;
  token: string;
}

/**
 * Registers `count` members named `<prefix><ctx.tag>0000`, `<prefix><ctx.tag>0001`, ... and mints `amount` (decimal string) of
 * each of `currencyIds` to each, as the admin. Returns them with their session tokens.
 */
export async function registerFundedMembers(
  ctx: BenchContext,
  count: number,
  prefix: string,
  currencyIds: readonly number[],
  amount: string,
): Promise<BenchMember[]> {
  const members = await mapLimit(
    Array.from({ length: count }, (_, i) => `${prefix}${ctx.tag}${String(i).padStart(4, '0')}`),
    8,
    async (nickname) => {
      const res = await ctx.api.post<{ token: string }>('/api/user/register', {
        nickname,
        email: `${nickname}@bench.example.com`,
        password: MEMBER_PASSWORD,
      });
      return { nickname, token: res.token };
    },
  );
  const mints = members.flatMap((m) => currencyIds.map((currencyId) => ({ nickname: m.nickname, currencyId })));
  await mapLimit(mints, 16, ({ nickname, currencyId }) =>
    ctx.api.post('/api/bank/mint', { recipientNickName: nickname, currencyId, amount, note: 'bench' }, ctx.adminToken),
  );
  return members;
}
