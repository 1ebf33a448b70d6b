/**
 * SQL of forge recipes (DESIGN §6): list, read, insert, change, soft-delete.
 * Reads other modules' tables: `currencies` (a recipe's two currencies' tickers, precisions and rules), joined in the recipe's one read.
 */
import { formatAtPrecision, fromNumeric, type Recipe } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';
import { forgeRecipes } from '../../db/schema/index.ts';
import { newObjectId } from '../../lib/ids.ts';

/** A recipe row as the service works with it (amounts as numeric text, 10^-9 exact). */
export type RecipeRow = typeof forgeRecipes.$inferSelect;

/** The columns a request may write (amounts as numeric text). */
export type RecipeFields = Partial<
  Pick<
    RecipeRow,
    | 'name'
    | 'description'
    | 'imgUrl'
    | 'timeRequired'
    | 'inputCurrencyId'
    | 'inputAmount'
    | 'outputCurrencyId'
    | 'outputAmount'
    | 'active'
  >
>;

type RecipeDtoRow = {
  id: string;
  name: string;
  description: string;
  img_url: string;
  time_required: number;
  input_currency_id: number;
  input_amount: string;
  input_precision: number;
  output_currency_id: number;
  output_amount: string;
  output_precision: number;
  active: boolean;
  created_at: string | Date;
};

const toRecipeDto = (r: RecipeDtoRow): Recipe => ({
  _id: r.id,
  name: r.name,
  description: r.description,
  imgUrl: r.img_url,
  timeRequired: Number(r.time_required),
  input: {
    currencyId: Number(r.input_currency_id),
    amount: formatAtPrecision(fromNumeric(r.input_amount), Number(r.input_precision)),
  },
  output: {
    currencyId: Number(r.output_currency_id),
    amount: formatAtPrecision(fromNumeric(r.output_amount), Number(r.output_precision)),
  },
  active: r.active,
  createdAt: new Date(r.created_at).toISOString(),
});

/** Recipes as the wire shows them (DESIGN §6), not deleted, matching `where`, oldest first. */
async function selectRecipes(db: DbOrTx, where: SQL): Promise<Recipe[]> {
  const rows = await queryPlanned<RecipeDtoRow>(
    db,
    sql`
    SELECT r.id, r.name, r.description, r.img_url, r.time_required,
           r.input_currency_id, r.input_amount::text AS input_amount, ci.precision AS input_precision,
           r.output_currency_id, r.output_amount::text AS output_amount, co.precision AS output_precision,
           r.active, r.created_at
    FROM forge_recipes r
    JOIN currencies ci ON ci.currency_id = r.input_currency_id
    JOIN currencies co ON co.currency_id = r.output_currency_id
    WHERE r.deleted_at IS NULL AND ${where}
    ORDER BY r.created_at, r.id`,
  );
  return rows.map(toRecipeDto);
}

/** Every live recipe, or only the active ones, oldest first (wire shape). */
export function findRecipes(db: DbOrTx, onlyActive: boolean): Promise<Recipe[]> {
  return selectRecipes(db, onlyActive ? sql`r.active` : sql`true`);
}

/** One live recipe in wire shape, or null. */
export async function findRecipeDto(db: DbOrTx, id: string): Promise<Recipe | null> {
  return (await selectRecipes(db, sql`r.id = ${id}`))[0] ?? null;
}

/** The live (not deleted) recipe `id`, or null. */
export async function findRecipe(db: DbOrTx, id: string): Promise<RecipeRow | null> {
  const [row] = await db
    .select()
    .from(forgeRecipes)
    .where(sql`${forgeRecipes.id} = ${id} AND ${forgeRecipes.deletedAt} IS NULL`);
  return row ?? null;
}

/** Inserts a recipe and returns its id. */
export async function insertRecipe(
  db: DbOrTx,
  values: Required<Omit<RecipeFields, 'active' | 'imgUrl'>> & Pick<RecipeFields, 'active' | 'imgUrl'>,
): Promise<string> {
  const id = newObjectId();
  await db.insert(forgeRecipes).values({ id, ...values });
  return id;
}

/** Writes `fields` to the live recipe `id` (nothing when `fields` is empty). */
export async function updateRecipe(db: DbOrTx, id: string, fields: RecipeFields): Promise<void> {
  if (Object.keys(fields).length === 0) return;
  await db
    .update(forgeRecipes)
    .set(fields)
    .where(sql`${forgeRecipes.id} = ${id} AND ${forgeRecipes.deletedAt} IS NULL`);
}

/** Marks the live recipe `id` deleted; false when there was none. Its processes keep pointing at it. */
export async function markRecipeDeleted(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .update(forgeRecipes)
    .set({ deletedAt: sql`now()`, active: false })
    .where(sql`${forgeRecipes.id} = ${id} AND ${forgeRecipes.deletedAt} IS NULL`)
    .returning({ id: forgeRecipes.id });
  return rows.length > 0;
}
