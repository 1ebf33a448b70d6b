/**
 * Helpers of the forge's API tests: the run's ore and ingot currencies, recipe and process calls, members
 * holding ore, the ledger rows of a process, and time moved by rewriting a process's dates in the database.
 */
import type { Currency, ForgeProcess, Recipe, RecipesResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { bankCalls } from './bank.helpers.ts';
import { call, type Member, mint, registerMember, type TestApp } from './helpers.ts';

/** The currencies a file's recipes turn into each other: ore (precision 2) into ingots (precision 0). */
export interface ForgeCurrencies {
  ore: Currency;
  ingot: Currency;
}

/** Creates a file's ore and ingot currencies (call it in `beforeAll`). */
export async function forgeCurrencies(t: TestApp): Promise<ForgeCurrencies> {
  const bank = bankCalls(t);
  const ore = await bank.newCurrency({ name: 'Forge Ore', precision: 2 });
  const ingot = await bank.newCurrency({ name: 'Forge Ingot', precision: 0 });
  return { ore, ingot };
}

/** The forge calls of a test file's app `t`, on the currencies `currencies()` answers (read when called). */
export function forgeCalls(t: TestApp, currencies: () => ForgeCurrencies) {
  const recipeBody = (overrides: Record<string, unknown> = {}) => ({
    name: 'Smelt ingots',
    description: 'Turns ten ore into one ingot over an hour',
    imgUrl: 'https://example.com/ingot.png',
    timeRequired: 3600,
    input: { currencyId: currencies().ore.currencyId, amount: '10.5' },
    output: { currencyId: currencies().ingot.currencyId, amount: 1 },
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

  /**
   * The recipes (active or not, as the admin reads them) that use this file's ore or ingot: what a test
   * counts to see that a refused request created nothing, whatever other files create meanwhile.
   */
  async function ownRecipes(): Promise<Recipe[]> {
    const { ore, ingot } = currencies();
    const ours = new Set([ore.currencyId, ingot.currencyId]);
    return (await fetchRecipes(t.admin.token)).filter(
      (r) => ours.has(r.input.currencyId) || ours.has(r.output.currencyId),
    );
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

  /** A new member holding `oreAmount` ore. */
  async function member(oreAmount: string): Promise<Member> {
    const m = await registerMember(t.app, 'forger');
    await mint(t.app, t.admin, m.nickname, currencies().ore.currencyId, oreAmount);
    return m;
  }

  return { recipeBody, createRecipe, fetchRecipes, ownRecipes, start, end, started, age, ledgerRows, member };
}
