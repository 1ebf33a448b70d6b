/**
 * Forge recipes (DESIGN §6): admins create, modify, deactivate and delete them, everyone reads
 * the active ones; a recipe may only mint what can be minted and burn what can be burned (checked again at
 * a start and a claim); a currency's precision may not drop below what a recipe or running process holds.
 * Processes themselves: forge.processes.test.ts.
 */
import type { Currency } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bankCalls } from './bank.helpers.ts';
import { forgeCalls, forgeCurrencies } from './forge.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, mint, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const bank = bankCalls(t);
let ore: Currency;
let ingot: Currency;
const { recipeBody, createRecipe, fetchRecipes, ownRecipes, start, end, started, age, ledgerRows, member } = forgeCalls(
  t,
  () => ({
    ore,
    ingot,
  }),
);

beforeAll(async () => {
  ({ ore, ingot } = await forgeCurrencies(t));
});

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
    [{ input: { currencyId: 1, amount: 0 } }, 'Input amount must be at least 0.01'],
    [{ owner: 'x' }, '"owner" is not allowed'],
  ])('refuses %j with %s and creates nothing', async (overrides, message) => {
    const before = (await ownRecipes()).length;
    const res = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/create', recipeBody(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await ownRecipes()).toHaveLength(before);
  });

  it('refuses an amount finer than the currency precision (400) and an unknown currency (404)', async () => {
    const fine = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/create', {
      ...recipeBody(),
      output: { currencyId: ingot.currencyId, amount: '1.5' },
    });
    expect(fine.statusCode).toBe(400);
    expect(fine.json().message).toBe('Output amount must be a whole number');
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

  it('shows a recipe at its currency’s new precision as soon as the precision grows', async () => {
    const coin = await bank.newCurrency({ name: 'Forge Coin', precision: 2 });
    const recipe = await createRecipe({ input: { currencyId: coin.currencyId, amount: '10.5' } });
    expect((await fetchRecipes()).find((r) => r._id === recipe._id)?.input.amount).toBe('10.50');
    const res = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      precision: 4,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await fetchRecipes()).find((r) => r._id === recipe._id)?.input.amount).toBe('10.5000');
  });

  it('modify changes only the fields sent; setactive hides a recipe from members; delete hides it from all', async () => {
    const recipe = await createRecipe();
    // A visitor reads the list first, so each change below must reach a list already read (kept answers).
    expect((await fetchRecipes()).find((r) => r._id === recipe._id)).toEqual(recipe);
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
    expect((await fetchRecipes()).find((r) => r._id === recipe._id)?.name).toBe('Smelt faster');

    const off = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/setactive', {
      objectId: recipe._id,
      flag: false,
    });
    expect(off.json()).toMatchObject({ recipe: { active: false }, message: 'Recipe deactivated' });
    expect((await fetchRecipes()).some((r) => r._id === recipe._id)).toBe(false);
    expect((await fetchRecipes(t.admin.token)).some((r) => r._id === recipe._id)).toBe(true);

    const on = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/setactive', {
      objectId: recipe._id,
      flag: true,
    });
    expect(on.statusCode, on.body).toBe(200);
    expect((await fetchRecipes()).some((r) => r._id === recipe._id)).toBe(true);
    const del = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/delete', { objectId: recipe._id });
    expect(del.json()).toMatchObject({ message: 'Recipe deleted' });
    expect((await fetchRecipes(t.admin.token)).some((r) => r._id === recipe._id)).toBe(false);
    expect((await fetchRecipes()).some((r) => r._id === recipe._id)).toBe(false);
    const again = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/delete', { objectId: recipe._id });
    expect(again.statusCode).toBe(404);

    const logs = await t.built.database.db.execute<{ category: number }>(
      sql`SELECT category FROM admin_logs WHERE action LIKE ${`%${recipe._id}%`} ORDER BY created_at`,
    );
    expect(logs.rows.map((r) => Number(r.category))).toEqual([11, 15, 14, 14, 12]);
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
    const before = (await ownRecipes()).length;
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
    expect(await ownRecipes()).toHaveLength(before);

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
