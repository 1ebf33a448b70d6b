/**
 * Forge processes (DESIGN §6): a member's process takes its input at the start and ends
 * once, claimed after its finish date or cancelled in its first 10 minutes, even under concurrent claims
 * and cancels; another member's process is "not found"; the ledger stays conserved. Time is moved by
 * rewriting a process's dates in the database, as the server reads them there. Recipes: forge.recipes.test.ts.
 */
import type { Currency, ForgeProcess, ForgeProcessesResponse, Recipe } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { forgeCalls, forgeCurrencies } from './forge.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, type Member, useTestApp } from './helpers.ts';

const t = useTestApp();
let ore: Currency;
let ingot: Currency;
const { createRecipe, start, end, started, age, ledgerRows, member } = forgeCalls(t, () => ({ ore, ingot }));

beforeAll(async () => {
  ({ ore, ingot } = await forgeCurrencies(t));
});

describe('processes', () => {
  let recipe: Recipe;
  beforeAll(async () => {
    recipe = await createRecipe();
  });

  it('start takes input x quantity; a claim before the finish date is refused; after it pays output x quantity once', async () => {
    const m = await member('100');
    const p = await started(m, recipe._id, 3);
    expect(p).toMatchObject({
      recipe: { _id: recipe._id, name: recipe.name },
      input: { currencyId: ore.currencyId, amount: '10.50' },
      output: { currencyId: ingot.currencyId, amount: '1' },
      quantity: 3,
      state: 1,
      user: { nickname: m.nickname },
      endedAt: null,
    });
    expect(Date.parse(p.finishDate) - Date.parse(p.createdAt)).toBe(3600_000);
    expect(await balanceOf(t.app, m, ore.currencyId)).toBe('68.5');

    const early = await end(m, p._id, false);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('This process is not finished yet');
    expect(await balanceOf(t.app, m, ingot.currencyId)).toBe('0');

    await age(p._id, 3600, -1);
    const claimed = await end(m, p._id, false);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json()).toMatchObject({ process: { state: 3 }, message: 'Process finished' });
    expect(await balanceOf(t.app, m, ingot.currencyId)).toBe('3');
    const twice = await end(m, p._id, false);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This process has already ended');
    expect(await balanceOf(t.app, m, ingot.currencyId)).toBe('3');
    expect(await ledgerRows(p._id)).toEqual([`14 ${ore.currencyId} 31.5`, `13 ${ingot.currencyId} 3`]);
  });

  it('concurrent starts each keep their own outcome; the answered processes are the ones stored', async () => {
    // Each member can pay two starts of 2 (21 ore each, 42 of 50) and not three, whichever batch takes them.
    const members = await Promise.all(Array.from({ length: 5 }, () => member('50')));
    const results = await Promise.all(members.flatMap((m) => [1, 2, 3].map(() => start(m, recipe._id, 2))));
    for (const [i, m] of members.entries()) {
      const mine = results.slice(3 * i, 3 * i + 3);
      expect(mine.map((r) => r.statusCode).sort(), m.nickname).toEqual([200, 200, 409]);
      expect(mine.find((r) => r.statusCode === 409)?.json().message).toBe('Insufficient funds');
      expect(await balanceOf(t.app, m, ore.currencyId)).toBe('8');
      const listed = await call(t.app, m.token, 'POST', '/api/forge/getForgeProcesses', {
        paging: { page: 1, limit: 10 },
      });
      const stored = listed.json<ForgeProcessesResponse>().processes;
      const answered = mine.filter((r) => r.statusCode === 200).map((r) => r.json<{ process: ForgeProcess }>().process);
      expect(stored).toHaveLength(2);
      for (const p of answered) {
        expect(stored).toContainEqual(p);
        expect(await ledgerRows(p._id)).toEqual([`14 ${ore.currencyId} 21`]);
      }
    }
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('concurrent claims pay each process once; another member cannot claim it', async () => {
    const members = await Promise.all(Array.from({ length: 4 }, () => member('20')));
    const processes = await Promise.all(members.map((m) => started(m, recipe._id, 1)));
    for (const p of processes) await age(p._id, 3600, -1);
    const stranger = await member('1');
    const results = await Promise.all(
      processes.flatMap((p, i) => {
        const m = members[i] as Member;
        return [end(m, p._id, false), end(m, p._id, false), end(stranger, p._id, false), end(m, p._id, true)];
      }),
    );
    for (const [i, m] of members.entries()) {
      const [a, b, other, cancel] = results.slice(4 * i, 4 * i + 4);
      expect([a, b].map((r) => r?.statusCode).sort()).toEqual([200, 409]);
      expect([a, b].find((r) => r?.statusCode === 409)?.json().message).toBe('This process has already ended');
      expect([other?.statusCode, other?.json().message]).toEqual([404, 'Process not found']);
      expect(cancel?.statusCode).toBe(409);
      expect(await balanceOf(t.app, m, ingot.currencyId)).toBe('1');
      expect(await ledgerRows(processes[i]?._id ?? '')).toEqual([
        `14 ${ore.currencyId} 10.5`,
        `13 ${ingot.currencyId} 1`,
      ]);
    }
    expect(await balanceOf(t.app, stranger, ingot.currencyId)).toBe('0');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('cancel in the first 10 minutes pays the input back; at 10 minutes or after the finish date it is refused', async () => {
    const m = await member('100');
    const inWindow = await started(m, recipe._id, 2);
    await age(inWindow._id, 599, 3000);
    const cancelled = await end(m, inWindow._id, true);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ process: { state: 4 }, message: 'Process cancelled' });
    expect(await balanceOf(t.app, m, ore.currencyId)).toBe('100');
    expect(await ledgerRows(inWindow._id)).toEqual([`14 ${ore.currencyId} 21`, `13 ${ore.currencyId} 21`]);

    const late = await started(m, recipe._id, 1);
    await age(late._id, 601, 3000);
    const refused = await end(m, late._id, true);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('The cancel window has closed (10 minutes after the start)');

    const quick = await createRecipe({ timeRequired: 30 });
    const finished = await started(m, quick._id, 1);
    await age(finished._id, 60, -30);
    const afterFinish = await end(m, finished._id, true);
    expect(afterFinish.statusCode).toBe(409);
    expect(afterFinish.json().message).toBe('This process has finished: claim it instead');
    expect(await balanceOf(t.app, m, ore.currencyId)).toBe('79');
  });

  it("another member's process is not found, and they cannot list it", async () => {
    const owner = await member('50');
    const other = await member('50');
    const p = await started(owner, recipe._id, 1);
    await age(p._id, 60, -1);
    for (const cancel of [false, true]) {
      const res = await end(other, p._id, cancel);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Process not found');
    }
    const list = await call(t.app, other.token, 'POST', '/api/forge/getForgeProcesses', {
      paging: { limit: 10, page: 1 },
    });
    expect(list.json<ForgeProcessesResponse>()).toMatchObject({ processes: [], total: 0, message: 'No logs found' });
    expect(await balanceOf(t.app, other, ingot.currencyId)).toBe('0');
    expect((await end(owner, p._id, false)).statusCode).toBe(200);
  });

  it('refuses without funds, for an inactive or unknown recipe, and for a bad quantity, leaving nothing behind', async () => {
    const m = await member('10');
    const poor = await start(m, recipe._id, 1);
    expect(poor.statusCode).toBe(409);
    expect(poor.json().message).toBe('Insufficient funds');
    const inactive = await createRecipe({ active: false });
    expect((await start(m, inactive._id, 1)).json().message).toBe('This recipe is not active');
    const unknown = await start(m, '0123456789abcdef01234567', 1);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Recipe not found');
    for (const quantity of [0, -1, 1.5]) {
      const res = await start(m, recipe._id, quantity);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('"quantity" contains an invalid value');
    }
    const missing = await call(t.app, m.token, 'POST', '/api/forge/startProcess', { recipeId: recipe._id });
    expect(missing.json().message).toBe('"quantity" is required');
    expect(
      (await call(t.app, undefined, 'POST', '/api/forge/startProcess', { recipeId: recipe._id, quantity: 1 }))
        .statusCode,
    ).toBe(401);
    const count = await t.built.database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM forge_processes p JOIN users u ON u.id = p.user_id WHERE u.nickname = ${m.nickname}`,
    );
    expect(Number(count.rows[0]?.n)).toBe(0);
    expect(await balanceOf(t.app, m, ore.currencyId)).toBe('10');
  });

  it('a process keeps what it copied: the recipe changed, deactivated or deleted, it still finishes as started', async () => {
    const own = await createRecipe();
    const m = await member('100');
    const p = await started(m, own._id, 2);
    await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/modify', {
      recipeId: own._id,
      output: { currencyId: ingot.currencyId, amount: 50 },
    });
    await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/delete', { objectId: own._id });
    await age(p._id, 4000, -1);
    const res = await end(m, p._id, false);
    expect(res.statusCode, res.body).toBe(200);
    expect(await balanceOf(t.app, m, ingot.currencyId)).toBe('2');

    const other = await createRecipe();
    const q = await started(m, other._id, 1);
    await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/setactive', { objectId: other._id, flag: false });
    expect((await end(m, q._id, true)).statusCode).toBe(200);
  });

  it.each([
    ['inside the cancel window', 60, 3000, 'Process cancelled'],
    ['after the finish date', 4000, -1, 'Process finished'],
  ])('10 concurrent claims and cancels %s: exactly one outcome, paid once', async (_when, ageS, finishIn, message) => {
    const m = await member('100');
    const p = await started(m, recipe._id, 4);
    await age(p._id, ageS, finishIn);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => end(m, p._id, i % 2 === 0)));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]?.json().message).toBe(message);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(9);
    expect(await ledgerRows(p._id)).toHaveLength(2);
    const cancelled = message === 'Process cancelled';
    expect(await balanceOf(t.app, m, ore.currencyId)).toBe(cancelled ? '100' : '58');
    expect(await balanceOf(t.app, m, ingot.currencyId)).toBe(cancelled ? '0' : '4');
  });

  it("lists a member's own processes newest first with paging, and every member's for an admin with filters", async () => {
    const a = await member('100');
    const b = await member('100');
    const first = await started(a, recipe._id, 1);
    const second = await started(a, recipe._id, 2);
    const third = await started(b, recipe._id, 1);
    await age(first._id, 3600, -1);
    expect((await end(a, first._id, false)).statusCode).toBe(200);

    const page1 = await call(t.app, a.token, 'POST', '/api/forge/getForgeProcesses', { paging: { limit: 5, page: 1 } });
    const own = page1.json<ForgeProcessesResponse>();
    expect(own.total).toBe(2);
    expect(own.processes.map((p) => p._id)).toEqual([second._id, first._id]);

    const all = (filters: Record<string, unknown>) =>
      call(t.app, t.admin.token, 'POST', '/api/forge/getForgeProcessesAll', {
        paging: { limit: 50, page: 1 },
        filters,
      });
    const byNick = (await all({ nickname: b.nickname })).json<ForgeProcessesResponse>();
    expect(byNick.processes.map((p) => p._id)).toEqual([third._id]);
    const completed = (await all({ nickname: a.nickname, state: 3 })).json<ForgeProcessesResponse>();
    expect(completed.processes.map((p) => p._id)).toEqual([first._id]);
    const finishedBefore = (
      await all({ nickname: a.nickname, finishBefore: new Date().toISOString() })
    ).json<ForgeProcessesResponse>();
    expect(finishedBefore.processes.map((p) => p._id)).toEqual([first._id]);
    const future = (
      await all({ startAfter: new Date(Date.now() + 86_400_000).toISOString() })
    ).json<ForgeProcessesResponse>();
    expect(future).toMatchObject({ processes: [], total: 0, message: 'No logs found' });
    const bad = await all({ state: 2 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('"filters.state" contains an invalid value');
    const badPaging = await call(t.app, a.token, 'POST', '/api/forge/getForgeProcesses', {
      paging: { limit: 4, page: 1 },
    });
    expect(badPaging.json().message).toBe('"paging.limit" contains an invalid value');
  });

  it('the ledger stays conserved with no negative balance', async () => {
    await expectLedgerBalanced(t.app, t.admin);
  });
});
