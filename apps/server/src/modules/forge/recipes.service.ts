/**
 * Forge recipes (DESIGN §6; SPEC §2 Forge Control, §5): members read the active ones; admins create,
 * change, deactivate and delete them, each change with an admin log row (SPEC §3 categories 11-15).
 * Changing or deleting a recipe never touches a running process: it copied the recipe when it started.
 * A recipe's input must be burnable (`canBurn`) and its output mintable (`canMint`) when a request sets
 * them: the forge removes and issues currency as an admin burn and mint do (DESIGN §4), so a recipe
 * cannot issue a fixed-supply currency such as the synth chips (ASC).
 */
import {
  ADMIN_CATEGORY,
  AppError,
  type CreateRecipeInput,
  formatAmount,
  type ModifyRecipeInput,
  type RecipeResponse,
  type RecipesResponse,
} from '@starlight/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import { requireBurnable, requireCurrency, requireMintable, requirePrecision } from '../bank/currencies.service.ts';
import { insertAdminLog } from '../oversight/oversight.public.ts';
import {
  findRecipe,
  findRecipeDto,
  findRecipes,
  insertRecipe,
  markRecipeDeleted,
  type RecipeFields,
  updateRecipe,
} from './recipes.queries.ts';

/** A recipe side as a request gives it: `amount` an Amount (10^-9 units). */
type SideInput = NonNullable<ModifyRecipeInput['input']>;

/**
 * The columns of a recipe side, after checking that the currency exists (NOT_FOUND `Currency not
 * found`), that the amount fits its precision (VALIDATION `"{side}.amount" contains an invalid value`)
 * and that the forge may burn the input or mint the output (CONFLICT `{ticker} cannot be burned` /
 * `{ticker} cannot be minted`: a forge output issues currency, so it needs `canMint`, and a forge input
 * removes it, so it needs `canBurn`, as an admin mint or burn does; DESIGN §4, §6).
 */
async function sideColumns(db: DbOrTx, side: SideInput, which: 'input' | 'output') {
  const currency = await requireCurrency(db, side.currencyId);
  requirePrecision(side.amount, currency, `${which}.amount`);
  if (which === 'input') requireBurnable(currency);
  else requireMintable(currency);
  return { currencyId: currency.currencyId, amount: formatAmount(side.amount) };
}

/** The columns a create or modify request sets (only the fields it carries). */
async function recipeColumns(db: DbOrTx, input: Omit<ModifyRecipeInput, 'recipeId'>): Promise<RecipeFields> {
  const fields: RecipeFields = {};
  if (input.name !== undefined) fields.name = input.name;
  if (input.description !== undefined) fields.description = input.description;
  if (input.imgUrl !== undefined) fields.imgUrl = input.imgUrl;
  if (input.timeRequired !== undefined) fields.timeRequired = input.timeRequired;
  if (input.active !== undefined) fields.active = input.active;
  if (input.input) {
    const side = await sideColumns(db, input.input, 'input');
    fields.inputCurrencyId = side.currencyId;
    fields.inputAmount = side.amount;
  }
  if (input.output) {
    const side = await sideColumns(db, input.output, 'output');
    fields.outputCurrencyId = side.currencyId;
    fields.outputAmount = side.amount;
  }
  return fields;
}

/** The recipe `id` in wire shape after a change in `tx` (it exists: the caller just wrote it). */
async function recipeDto(tx: DbOrTx, id: string) {
  const recipe = await findRecipeDto(tx, id);
  if (!recipe) throw new Error(`recipe ${id} vanished`);
  return recipe;
}

/**
 * `recipes/fetch` (public, DESIGN §6): the active recipes, oldest first; an admin gets every live one
 * (inactive included). Answers `{recipes, message}`; the message is `No Recipes` when there is none.
 */
export async function fetchRecipes(db: Db, viewer: AuthUser | null): Promise<RecipesResponse> {
  const recipes = await findRecipes(db, viewer?.role !== 'admin');
  return { recipes, message: recipes.length === 0 ? 'No Recipes' : `Got ${recipes.length} recipe(s)` };
}

/**
 * Admin `recipes/create` (DESIGN §6): a recipe, active unless `active: false`, with an admin log row
 * (category 11). Answers `{recipe, message: 'Recipe created'}`. Throws NOT_FOUND (a currency),
 * VALIDATION (an amount finer than its currency's precision) and CONFLICT (an input that cannot be
 * burned or an output that cannot be minted).
 */
export async function createRecipe(
  db: Db,
  admin: AuthUser,
  input: CreateRecipeInput,
  address: string,
): Promise<RecipeResponse> {
  return inTransaction(db, async (tx) => {
    const fields = await recipeColumns(tx, input);
    const id = await insertRecipe(tx, {
      name: input.name,
      description: input.description,
      timeRequired: input.timeRequired,
      inputCurrencyId: fields.inputCurrencyId!,
      inputAmount: fields.inputAmount!,
      outputCurrencyId: fields.outputCurrencyId!,
      outputAmount: fields.outputAmount!,
      imgUrl: fields.imgUrl,
      active: fields.active,
    });
    await insertAdminLog(tx, {
      adminId: admin.id,
      address,
      category: ADMIN_CATEGORY.CreateForgeRecipe,
      action: `Created forge recipe ${input.name} (${id})`,
    });
    return { recipe: await recipeDto(tx, id), message: 'Recipe created' };
  });
}

/**
 * Admin `recipes/modify {recipeId, ...changed fields}` (DESIGN §6), with an admin log row naming the
 * changed fields (category 15). Running processes keep what they copied. Answers `{recipe, message:
 * 'Recipe modified'}`. Throws NOT_FOUND (`Recipe not found`, a currency), VALIDATION (precision) and
 * CONFLICT (a new input that cannot be burned or output that cannot be minted; only the sides the
 * request sets are checked, so a recipe whose currency lost a flag can still be renamed or
 * deactivated, and starting it is refused anyway).
 */
export async function modifyRecipe(
  db: Db,
  admin: AuthUser,
  input: ModifyRecipeInput,
  address: string,
): Promise<RecipeResponse> {
  return inTransaction(db, async (tx) => {
    const before = await findRecipe(tx, input.recipeId);
    if (!before) throw new AppError('NOT_FOUND', 'Recipe not found');
    const { recipeId: _id, ...changes } = input;
    const fields = await recipeColumns(tx, changes);
    await updateRecipe(tx, before.id, fields);
    await insertAdminLog(tx, {
      adminId: admin.id,
      address,
      category: ADMIN_CATEGORY.ModifyForgeRecipe,
      action: `Modified forge recipe ${before.name} (${before.id}): ${Object.keys(changes).join(', ') || 'no changes'}`,
    });
    return { recipe: await recipeDto(tx, before.id), message: 'Recipe modified' };
  });
}

/**
 * Admin `recipes/delete {objectId}` (DESIGN §6): the recipe leaves every list (its row stays for the
 * processes that ran it; running ones still finish or cancel). Admin log category 12. Answers
 * `{recipe, message: 'Recipe deleted'}` with the recipe as it was. Throws NOT_FOUND `Recipe not found`.
 */
export async function deleteRecipe(
  db: Db,
  admin: AuthUser,
  objectId: string,
  address: string,
): Promise<RecipeResponse> {
  return inTransaction(db, async (tx) => {
    const recipe = await findRecipeDto(tx, objectId);
    if (!recipe || !(await markRecipeDeleted(tx, objectId))) throw new AppError('NOT_FOUND', 'Recipe not found');
    await insertAdminLog(tx, {
      adminId: admin.id,
      address,
      category: ADMIN_CATEGORY.DeleteForgeRecipe,
      action: `Deleted forge recipe ${recipe.name} (${recipe._id})`,
    });
    return { recipe, message: 'Recipe deleted' };
  });
}

/**
 * Admin `recipes/setactive {objectId, flag}` (DESIGN §6): members can start only active recipes.
 * Admin log category 14. Answers `{recipe, message: 'Recipe activated' | 'Recipe deactivated'}`.
 * Throws NOT_FOUND `Recipe not found`.
 */
export async function setRecipeActive(
  db: Db,
  admin: AuthUser,
  input: { objectId: string; flag: boolean },
  address: string,
): Promise<RecipeResponse> {
  return inTransaction(db, async (tx) => {
    const before = await findRecipe(tx, input.objectId);
    if (!before) throw new AppError('NOT_FOUND', 'Recipe not found');
    await updateRecipe(tx, before.id, { active: input.flag });
    await insertAdminLog(tx, {
      adminId: admin.id,
      address,
      category: ADMIN_CATEGORY.ChangedForgeRecipeActiveState,
      action: `Set forge recipe ${before.name} (${before.id}) ${input.flag ? 'active' : 'inactive'}`,
    });
    return {
      recipe: await recipeDto(tx, before.id),
      message: input.flag ? 'Recipe activated' : 'Recipe deactivated',
    };
  });
}
