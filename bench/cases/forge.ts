/**
 * The forge benchmark: forge processes started, then claimed, per second through the API
 * (POST /api/forge/startProcess and /endProcess). Every member starts a one-second recipe (0.01 SD in,
 * 0.01 SN out) over and over; once those have finished, the same members claim them, each process once.
 */
import type { RawRequest } from 'autocannon';
import { type BenchContext, measure, type Suite, throughputFigures } from '../lib/context.ts';
import { type BenchMember, registerFundedMembers } from '../lib/members.ts';
import { psql } from '../lib/postgres.ts';

/** Seeded currencies (apps/server/src/seed.ts). */
const SD = 1;
const SN = 2;

const post = (token: string, path: string, body: unknown): RawRequest => ({
  method: 'POST',
  path,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  body: JSON.stringify(body),
});

/** The running processes of `recipeId` with their owners' nicknames (the claims' work list). */
async function runningProcesses(ctx: BenchContext, recipeId: string): Promise<Array<{ id: string; nickname: string }>> {
  const out = await psql(
    ctx.pg,
    ctx.database,
    `SELECT p.id || '|' || u.nickname FROM forge_processes p JOIN users u ON u.id = p.user_id
      WHERE p.recipe_id = '${recipeId}' AND p.state = 1 ORDER BY p.created_at`,
  );
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id = '', nickname = ''] = line.split('|');
      return { id, nickname };
    });
}

export const forgeSuite: Suite = {
  name: 'forge',
  cases: ['forge_start', 'forge_claim'],
  async run(ctx, selected, report) {
    const started = Date.now();
    const members = await registerFundedMembers(ctx, Number(process.env.BENCH_MEMBERS || 200), 'forger', [SD], '1000');
    const { recipe } = await ctx.api.post<{ recipe: { _id: string } }>(
      '/api/forge/recipes/create',
      {
        name: `Bench forge${ctx.tag}`,
        description: 'One second from stardust to starnote',
        timeRequired: 1,
        input: { currencyId: SD, amount: '0.01' },
        output: { currencyId: SN, amount: '0.01' },
      },
      ctx.adminToken,
    );
    ctx.log(`forge: ${members.length} members and a recipe ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const start = (n: number) =>
      post((members[n % members.length] as BenchMember).token, '/api/forge/startProcess', {
        recipeId: recipe._id,
        quantity: 1,
      });
    ctx.log('forge: forge_start...');
    const starts = await measure(ctx, start);
    if (selected('forge_start'))
      report({ ...throughputFigures(ctx, 'forge_start', 'starts_per_s', starts), members: members.length });

    if (!selected('forge_claim')) return;
    // A claim is cheaper than a start: start as many again (unmeasured), so the claims never run out.
    await measure({ ...ctx, settings: { ...ctx.settings, warmupS: 0 } }, start);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const tokens = new Map(members.map((m) => [m.nickname, m.token]));
    const work = await runningProcesses(ctx, recipe._id);
    ctx.log(`forge: forge_claim over ${work.length} finished processes...`);
    // No warm-up: each process is claimed once.
    const claims = await measure({ ...ctx, settings: { ...ctx.settings, warmupS: 0 } }, (n) => {
      const p = work[n % work.length] as { id: string; nickname: string };
      return post(tokens.get(p.nickname) ?? '', '/api/forge/endProcess', { processId: p.id, cancel: false });
    });
    // Each process paid once: as many forge-mint rows as completed processes of the recipe.
    const paid = await psql(
      ctx.pg,
      ctx.database,
      `SELECT (SELECT count(*) FROM forge_processes WHERE recipe_id = '${recipe._id}' AND state = 3)
            = (SELECT count(*) FROM bank_transactions t JOIN forge_processes p ON p.id = t.reference
                WHERE p.recipe_id = '${recipe._id}' AND t.category = 13)`,
    );
    report({
      ...throughputFigures(ctx, 'forge_claim', 'claims_per_s', claims),
      members: members.length,
      claimable: work.length,
      paid_once: paid === 't',
    });
  },
};
