/**
 * The forge (issue 9 §1, §2; DESIGN §6): admins run recipes; a member's process takes its input at the
 * start and ends once, claimed after its finish date or cancelled in its first 10 minutes, even under
 * concurrent claims and cancels; another member's process is "not found"; the ledger stays conserved.
 * Time is moved by rewriting a process's dates in the database, as the server reads them there.
 */
import type { Currency, ForgeProcess, ForgeProcessesResponse, Recipe, RecipesResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bankCalls } from './bank.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, type Member, mint, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const bank = bankCalls(t);
let ore: Currency;
let ingot: Currency;

beforeAll(async () => {
  ore = await bank.newCurrency({ name: 'Forge Ore', precision: 2 });
  ingot = await bank.newCurrency({ name: 'Forge Ingot', precision: 0 });
});

const recipeBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Smelt ingots',
  description: 'Turns ten ore into one ingot over an hour',
  imgUrl: 'https://example.com/ingot.png',
  timeRequired: 3600,
  input: { currencyId: ore.currencyId, amount: '10.5' },
  output: { currencyId: ingot.currencyId, amount: 1 },
  ...overrides,
});

async function createRecipe(overrides: Record<string, unknown> = {}): Promise<Recipe> {
  const res = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/create', recipeBody(overrides));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ recipe: Recipe }>().recipe;
}

async function fetchRecipes(token?: string): Promise<Recipe[]> {
  const res = await call(t.app, token, 'GET', '/api/forge/recipes/fetch');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<RecipesResponse>().recipes;
}

function start(m: Member, recipeId: string, quantity: number) {
  return call(t.app, m.token, 'POST', '/api/forge/startProcess', { recipeId, quantity });
}

function end(m: Member, processId: string, cancel: boolean) {
  return call(t.app, m.token, 'POST', '/api/forge/endProcess', { processId, cancel });
}

async function started(m: Member, recipeId: string, quantity: number): Promise<ForgeProcess> {
  const res = await start(m, recipeId, quantity);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ process: ForgeProcess }>().process;
}

/** Moves a process in time: it started `ageSeconds` ago and finishes `finishInSeconds` from now (negative: passed). */
async function age(processId: string, ageSeconds: number, finishInSeconds: number) {
  await t.built.database.db.execute(sql`
    UPDATE forge_processes
       SET created_at = now() - make_interval(secs => ${ageSeconds}),
           finish_date = now() + make_interval(secs => ${finishInSeconds})
     WHERE id = ${processId}`);
}

async function ledgerRows(reference: string) {
  const res = await t.built.database.db.execute<{ category: number; currency_id: number; amount: string }>(
    sql`SELECT category, currency_id, amount::text AS amount FROM bank_transactions WHERE reference = ${reference} ORDER BY created_at, category DESC`,
  );
  return res.rows.map((r) => `${r.category} ${r.currency_id} ${Number(r.amount)}`);
}

async function member(oreAmount: string): Promise<Member> {
  const m = await registerMember(t.app, 'forger');
  await mint(t.app, t.admin, m.nickname, ore.currencyId, oreAmount);
  return m;
}

describe('recipes', () => {
  it('an admin creates a recipe that everyone can read, amounts at each currency precision', async () => {
    const recipe = await createRecipe();
    expect(recipe).toMatchObject({
      name: 'Smelt ingots',
      timeRequired: 3600,
      input: { currencyId: ore.currencyId, amount: '10.50' },
      output: { currencyId: ingot.currencyId, amount: '1' },
      active: true,
    });
    const visible = await fetchRecipes();
    expect(visible.find((r) => r._id === recipe._id)).toEqual(recipe);
    const times = visible.map((r) => Date.parse(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it.each([
    [{ timeRequired: 0 }, '"timeRequired" contains an invalid value'],
    [{ timeRequired: 1.5 }, '"timeRequired" contains an invalid value'],
    [{ timeRequired: undefined }, '"timeRequired" is required'],
    [{ name: 'ab' }, '"name" contains an invalid value'],
    [{ description: 'too short' }, '"description" contains an invalid value'],
    [{ imgUrl: 'not a url' }, '"imgUrl" contains an invalid value'],
    [{ input: { currencyId: 1, amount: 0 } }, '"input.amount" contains an invalid value'],
    [{ owner: 'x' }, '"owner" is not allowed'],
  ])('refuses %j with %s and creates nothing', async (overrides, message) => {
    const before = (await fetchRecipes(t.admin.token)).length;
    const res = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/create', recipeBody(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await fetchRecipes(t.admin.token)).toHaveLength(before);
  });

  it('refuses an amount finer than the currency precision (400) and an unknown currency (404)', async () => {
    const fine = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/create', {
      ...recipeBody(),
      output: { currencyId: ingot.currencyId, amount: '1.5' },
    });
    expect(fine.statusCode).toBe(400);
    expect(fine.json().message).toBe('"output.amount" contains an invalid value');
    const unknown = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/create', {
      ...recipeBody(),
      input: { currencyId: 999999, amount: 1 },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Currency not found');
  });

  it('only admins manage recipes: a member gets 403, a visitor 401', async () => {
    const m = await registerMember(t.app, 'nonadmin');
    const recipe = await createRecipe();
    const calls: Array<[string, Record<string, unknown>]> = [
      ['/api/forge/recipes/create', recipeBody()],
      ['/api/forge/recipes/modify', { recipeId: recipe._id, name: 'Hijacked' }],
      ['/api/forge/recipes/delete', { objectId: recipe._id }],
      ['/api/forge/recipes/setactive', { objectId: recipe._id, flag: false }],
      ['/api/forge/getForgeProcessesAll', { paging: { limit: 10, page: 1 } }],
    ];
    for (const [url, body] of calls) {
      expect((await call(t.app, m.token, 'POST', url, body)).statusCode, url).toBe(403);
      expect((await call(t.app, undefined, 'POST', url, body)).statusCode, url).toBe(401);
    }
    expect((await fetchRecipes()).find((r) => r._id === recipe._id)).toEqual(recipe);
  });

  it('modify changes only the fields sent; setactive hides a recipe from members; delete hides it from all', async () => {
    const recipe = await createRecipe();
    const modified = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/modify', {
      recipeId: recipe._id,
      name: 'Smelt faster',
      timeRequired: 60,
    });
    expect(modified.statusCode, modified.body).toBe(200);
    expect(modified.json()).toMatchObject({
      recipe: { ...recipe, name: 'Smelt faster', timeRequired: 60 },
      message: 'Recipe modified',
    });

    const off = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/setactive', {
      objectId: recipe._id,
      flag: false,
    });
    expect(off.json()).toMatchObject({ recipe: { active: false }, message: 'Recipe deactivated' });
    expect((await fetchRecipes()).some((r) => r._id === recipe._id)).toBe(false);
    expect((await fetchRecipes(t.admin.token)).some((r) => r._id === recipe._id)).toBe(true);

    const del = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/delete', { objectId: recipe._id });
    expect(del.json()).toMatchObject({ message: 'Recipe deleted' });
    expect((await fetchRecipes(t.admin.token)).some((r) => r._id === recipe._id)).toBe(false);
    const again = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/delete', { objectId: recipe._id });
    expect(again.statusCode).toBe(404);

    const logs = await t.built.database.db.execute<{ category: number }>(
      sql`SELECT category FROM admin_logs WHERE action LIKE ${`%${recipe._id}%`} ORDER BY created_at`,
    );
    expect(logs.rows.map((r) => Number(r.category))).toEqual([11, 15, 14, 12]);
  });
});

describe('what a recipe may mint and burn (canMint, canBurn)', () => {
  async function chipCurrencyId(): Promise<number> {
    const res = await call(t.app, undefined, 'GET', '/api/inventory/synthChips');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ currencyId: number }>().currencyId;
  }

  /** Everything ever issued of a currency (ledger rows from the system, escrow releases aside). */
  async function issued(currencyId: number): Promise<number> {
    const res = await t.built.database.db.execute<{ n: string }>(
      sql`SELECT coalesce(sum(amount), 0)::text AS n FROM bank_transactions
          WHERE currency_id = ${currencyId} AND sender_id IS NULL AND NOT escrow`,
    );
    return Number(res.rows[0]?.n);
  }

  const modifyCurrency = (currencyId: number, fields: Record<string, unknown>) =>
    call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', { currencyId, ...fields });

  it('refuses (409) a recipe whose output cannot be minted or input cannot be burned, on create and modify', async () => {
    const asc = await chipCurrencyId();
    const ascTicker = (await bank.listCurrencies()).find((c) => c.currencyId === asc)?.ticker;
    const before = (await fetchRecipes(t.admin.token)).length;
    const mintChips = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/create', {
      ...recipeBody(),
      output: { currencyId: asc, amount: 1 },
    });
    expect(mintChips.statusCode).toBe(409);
    expect(mintChips.json().message).toBe(`${ascTicker} cannot be minted`);
    const burnChips = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/create', {
      ...recipeBody(),
      input: { currencyId: asc, amount: 1 },
    });
    expect(burnChips.statusCode).toBe(409);
    expect(burnChips.json().message).toBe(`${ascTicker} cannot be burned`);
    expect(await fetchRecipes(t.admin.token)).toHaveLength(before);

    const recipe = await createRecipe();
    const modified = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/modify', {
      recipeId: recipe._id,
      name: 'Chip printer',
      output: { currencyId: asc, amount: 100 },
    });
    expect(modified.statusCode).toBe(409);
    expect(modified.json().message).toBe(`${ascTicker} cannot be minted`);
    expect((await fetchRecipes(t.admin.token)).find((r) => r._id === recipe._id)).toEqual(recipe);
    const supply = await issued(asc);
    expect(supply).toBeGreaterThan(0);

    // A recipe written before the rule (straight into the table) still cannot be started.
    await t.built.database.db.execute(
      sql`UPDATE forge_recipes SET output_currency_id = ${asc}, output_amount = 100 WHERE id = ${recipe._id}`,
    );
    const m = await member('100');
    const res = await start(m, recipe._id, 1);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`${ascTicker} cannot be minted`);
    expect(await balanceOf(t.app, m, ore.currencyId)).toBe('100');
    expect(await issued(asc)).toBe(supply);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('a recipe whose currency loses canBurn or canMint cannot be started', async () => {
    const input = await bank.newCurrency({ name: 'Flag Ore', precision: 0 });
    const output = await bank.newCurrency({ name: 'Flag Ingot', precision: 0 });
    const recipe = await createRecipe({
      input: { currencyId: input.currencyId, amount: 2 },
      output: { currencyId: output.currencyId, amount: 1 },
    });
    const m = await registerMember(t.app, 'flags');
    await mint(t.app, t.admin, m.nickname, input.currencyId, '10');
    expect((await modifyCurrency(input.currencyId, { canBurn: false })).statusCode).toBe(200);
    const noBurn = await start(m, recipe._id, 1);
    expect(noBurn.statusCode).toBe(409);
    expect(noBurn.json().message).toBe(`${input.ticker} cannot be burned`);
    expect((await modifyCurrency(input.currencyId, { canBurn: true })).statusCode).toBe(200);
    expect((await modifyCurrency(output.currencyId, { canMint: false })).statusCode).toBe(200);
    const noMint = await start(m, recipe._id, 1);
    expect(noMint.statusCode).toBe(409);
    expect(noMint.json().message).toBe(`${output.ticker} cannot be minted`);
    expect(await balanceOf(t.app, m, input.currencyId)).toBe('10');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('a claim is refused while the output cannot be minted (nothing moves, cancel still works); it pays once minting is back', async () => {
    const input = await bank.newCurrency({ name: 'Claim Ore', precision: 0 });
    const output = await bank.newCurrency({ name: 'Claim Ingot', precision: 0 });
    const recipe = await createRecipe({
      input: { currencyId: input.currencyId, amount: 2 },
      output: { currencyId: output.currencyId, amount: 1 },
    });
    const m = await registerMember(t.app, 'claims');
    await mint(t.app, t.admin, m.nickname, input.currencyId, '10');
    const p = await started(m, recipe._id, 2);
    const q = await started(m, recipe._id, 1);
    // The input losing canBurn after the start changes nothing: its burn was allowed when it happened.
    expect((await modifyCurrency(input.currencyId, { canBurn: false })).statusCode).toBe(200);
    expect((await modifyCurrency(output.currencyId, { canMint: false })).statusCode).toBe(200);
    const issuedBefore = await issued(output.currencyId);
    await age(p._id, 3600, -1);
    const refused = await end(m, p._id, false);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(`${output.ticker} cannot be minted now: claim this process when it can`);
    expect(await balanceOf(t.app, m, output.currencyId)).toBe('0');
    expect(await issued(output.currencyId)).toBe(issuedBefore);
    expect(await ledgerRows(p._id)).toEqual([`14 ${input.currencyId} 4`]);
    // Still in its cancel window, the other process can be cancelled: the input comes back.
    await age(q._id, 60, 3000);
    expect((await end(m, q._id, true)).statusCode).toBe(200);
    expect(await balanceOf(t.app, m, input.currencyId)).toBe('6');

    expect(
      (await modifyCurrency(output.currencyId, { canMint: true, isFrozen: true, frozenNote: 'Ingots paused' }))
        .statusCode,
    ).toBe(200);
    const frozen = await end(m, p._id, false);
    expect(frozen.statusCode).toBe(409);
    expect(frozen.json().message).toBe('Ingots paused');
    expect((await modifyCurrency(output.currencyId, { isFrozen: false })).statusCode).toBe(200);
    const claimed = await end(m, p._id, false);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json().message).toBe('Process finished');
    expect(await balanceOf(t.app, m, output.currencyId)).toBe('2');
    expect(await ledgerRows(p._id)).toEqual([`14 ${input.currencyId} 4`, `13 ${output.currencyId} 2`]);
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('precision of a currency the forge holds', () => {
  it('modifyCurrency refuses a precision below a live recipe or a running process amount', async () => {
    const fine = await bank.newCurrency({ name: 'Fine Ore', precision: 2 });
    const own = await createRecipe({ input: { currencyId: fine.currencyId, amount: '2.5' } });
    const setPrecision = (precision: number) =>
      call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', { currencyId: fine.currencyId, precision });
    const byRecipe = await setPrecision(0);
    expect(byRecipe.statusCode).toBe(409);
    expect(byRecipe.json().message).toBe('Precision 0 is below a forge recipe of this currency (2.5)');

    const m = await registerMember(t.app, 'finef');
    await mint(t.app, t.admin, m.nickname, fine.currencyId, '5');
    const p = await started(m, own._id, 2);
    expect(await balanceOf(t.app, m, fine.currencyId)).toBe('0');
    await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/delete', { objectId: own._id });
    const byProcess = await setPrecision(0);
    expect(byProcess.statusCode).toBe(409);
    expect(byProcess.json().message).toBe('Precision 0 is below a running forge process of this currency (2.5)');
    await age(p._id, 60, 3000);
    expect((await end(m, p._id, true)).statusCode).toBe(200);
    expect(await balanceOf(t.app, m, fine.currencyId)).toBe('5');
    expect((await setPrecision(0)).statusCode).toBe(200);
    await expectLedgerBalanced(t.app, t.admin);
  });
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
