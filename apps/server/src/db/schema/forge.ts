/** The forge: recipes and the processes that run them (SPEC §3, DESIGN §6). */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { currencies } from './bank.ts';
import { money, objectId } from './columns.ts';
import { users } from './users.ts';

/**
 * A recipe turns `inputAmount` of one currency into `outputAmount` of another in `timeRequired`
 * seconds. A deleted recipe keeps its row (`deletedAt`) so the processes that ran it still name it.
 */
export const forgeRecipes = pgTable(
  'forge_recipes',
  {
    id: objectId('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    imgUrl: text('img_url').notNull().default(''),
    /** Seconds. */
    timeRequired: integer('time_required').notNull(),
    inputCurrencyId: integer('input_currency_id')
      .notNull()
      .references(() => currencies.currencyId),
    inputAmount: money('input_amount').notNull(),
    outputCurrencyId: integer('output_currency_id')
      .notNull()
      .references(() => currencies.currencyId),
    outputAmount: money('output_amount').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('forge_recipes_created').on(t.createdAt, t.id).where(sql`${t.deletedAt} IS NULL`),
    check('forge_recipes_time', sql`${t.timeRequired} >= 1`),
    check('forge_recipes_amounts', sql`${t.inputAmount} > 0 AND ${t.outputAmount} > 0`),
  ],
);

/**
 * One run of a recipe by a member. The recipe's name, currencies and amounts (per unit) are copied in
 * when it starts, so changing or deleting the recipe never changes what a running process pays.
 * State (SPEC §4): 1 Started, 3 Completed, 4 Cancelled; it leaves 1 once, in one conditional UPDATE.
 */
export const forgeProcesses = pgTable(
  'forge_processes',
  {
    id: objectId('id').primaryKey(),
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    recipeId: objectId('recipe_id')
      .notNull()
      .references(() => forgeRecipes.id),
    recipeName: text('recipe_name').notNull(),
    inputCurrencyId: integer('input_currency_id')
      .notNull()
      .references(() => currencies.currencyId),
    inputAmount: money('input_amount').notNull(),
    outputCurrencyId: integer('output_currency_id')
      .notNull()
      .references(() => currencies.currencyId),
    outputAmount: money('output_amount').notNull(),
    quantity: integer('quantity').notNull(),
    state: integer('state').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishDate: timestamp('finish_date', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    // Each in the list's whole order (created_at, then id: migration 0028), so a page needs no sort.
    index('forge_processes_user').on(t.userId, t.createdAt, t.id),
    index('forge_processes_created').on(t.createdAt, t.id),
    // The Forge Process Logs filters, in the list's order; a finish range.
    index('forge_processes_state').on(t.state, t.createdAt, t.id),
    index('forge_processes_recipe').on(t.recipeId, t.createdAt, t.id),
    index('forge_processes_finish').on(t.finishDate),
    // The running processes by currency, for modifyCurrency's precision check (currencies.service.ts).
    index('forge_processes_running').on(t.inputCurrencyId, t.outputCurrencyId).where(sql`${t.state} = 1`),
    check('forge_processes_quantity', sql`${t.quantity} >= 1`),
    check('forge_processes_state', sql`${t.state} IN (1, 3, 4)`),
    check('forge_processes_amounts', sql`${t.inputAmount} > 0 AND ${t.outputAmount} > 0`),
  ],
);
