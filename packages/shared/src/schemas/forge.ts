/** The forge: recipes and processes (DESIGN §6; SPEC §3, §4, §5, §7 Forge). */
import { z } from 'zod';
import {
  amountInput,
  currencyId,
  description,
  INT32_MAX,
  isoDate,
  name,
  nickname,
  objectId,
  paging,
  totalCapped,
  url,
} from './common.ts';

/** DESIGN §6: a member may cancel a process in its first 10 minutes (and before its finish date). */
export const FORGE_CANCEL_WINDOW_MS = 600_000;

/** One side of a recipe on the wire: `amount` a decimal string at the currency's precision. */
export const forgeSide = z.object({ currencyId: z.number().int(), amount: z.string() });
export type ForgeSide = z.infer<typeof forgeSide>;

/** DESIGN §6 Recipe. `timeRequired` in seconds. */
export const recipe = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  imgUrl: z.string(),
  timeRequired: z.number().int(),
  input: forgeSide,
  output: forgeSide,
  active: z.boolean(),
  createdAt: z.string(),
});
export type Recipe = z.infer<typeof recipe>;

/** A recipe side as a request sends it: an existing currency and an amount at its precision (checked by the service). */
const sideInput = z.strictObject({ currencyId, amount: amountInput });

/** SPEC §5 forge recipe: name, description, `timeRequired` integer at least 1 (seconds), input and output. */
const recipeFields = {
  name,
  description,
  imgUrl: z.union([url, z.literal('')]),
  timeRequired: z.number().int().min(1).max(INT32_MAX),
  input: sideInput,
  output: sideInput,
  active: z.boolean(),
};

/** Admin `recipes/create` (DESIGN §6): active unless `active: false`. -> `{recipe, message}`. */
export const createRecipeRequest = z.strictObject({
  ...recipeFields,
  imgUrl: recipeFields.imgUrl.optional(),
  active: recipeFields.active.optional(),
});
export type CreateRecipeRequest = z.input<typeof createRecipeRequest>;
export type CreateRecipeInput = z.output<typeof createRecipeRequest>;

/** Admin `recipes/modify {recipeId, ...changed fields}` -> `{recipe, message}`. */
export const modifyRecipeRequest = z.strictObject({
  recipeId: objectId,
  ...z.object(recipeFields).partial().shape,
});
export type ModifyRecipeRequest = z.input<typeof modifyRecipeRequest>;
export type ModifyRecipeInput = z.output<typeof modifyRecipeRequest>;

/** Admin `recipes/delete {objectId}` -> `{recipe, message}`. */
export const deleteRecipeRequest = z.strictObject({ objectId });
export type DeleteRecipeRequest = z.infer<typeof deleteRecipeRequest>;

/** Admin `recipes/setactive {objectId, flag}` (SPEC §5 "Set object flag") -> `{recipe, message}`. */
export const setRecipeActiveRequest = z.strictObject({ objectId, flag: z.boolean() });
export type SetRecipeActiveRequest = z.infer<typeof setRecipeActiveRequest>;

export const recipeResponse = z.object({ recipe, message: z.string() });
export type RecipeResponse = z.infer<typeof recipeResponse>;

/** `recipes/fetch` -> `{recipes, message}`: active ones oldest first (an admin gets every recipe). */
export const recipesResponse = z.object({ recipes: z.array(recipe), message: z.string() });
export type RecipesResponse = z.infer<typeof recipesResponse>;

/** DESIGN §6 Process: `input`/`output` amounts are per unit; the total is amount × quantity. */
export const forgeProcess = z.object({
  _id: z.string(),
  createdAt: z.string(),
  finishDate: z.string(),
  recipe: z.object({ _id: z.string(), name: z.string() }),
  input: forgeSide,
  output: forgeSide,
  quantity: z.number().int(),
  state: z.number().int(),
  user: z.object({ nickname: z.string() }),
  /** When it was claimed or cancelled (ours, beyond DESIGN's shape); null while it runs. */
  endedAt: z.string().nullable(),
});
export type ForgeProcess = z.infer<typeof forgeProcess>;

/** SPEC §5 "Id with quantity: both": `startProcess {recipeId, quantity}` -> `{process, message}`. */
export const startProcessRequest = z.strictObject({
  recipeId: objectId,
  quantity: z.number().int().min(1).max(INT32_MAX),
});
export type StartProcessRequest = z.infer<typeof startProcessRequest>;

/** `endProcess {processId, cancel}` -> `{process, message}`: claim (`cancel: false`) or cancel. */
export const endProcessRequest = z.strictObject({ processId: objectId, cancel: z.boolean() });
export type EndProcessRequest = z.infer<typeof endProcessRequest>;

export const processResponse = z.object({ process: forgeProcess, message: z.string() });
export type ProcessResponse = z.infer<typeof processResponse>;

/** `getForgeProcesses {paging}`: the caller's own processes, newest first. */
export const getForgeProcessesRequest = z.strictObject({ paging });
export type GetForgeProcessesRequest = z.infer<typeof getForgeProcessesRequest>;

/** SPEC §2 Forge Process Logs filters: nickname, start and finish date ranges, state, recipe (its id). */
export const forgeProcessFilters = z.strictObject({
  nickname: nickname.optional(),
  startAfter: isoDate.optional(),
  startBefore: isoDate.optional(),
  finishAfter: isoDate.optional(),
  finishBefore: isoDate.optional(),
  state: z.union([z.literal(1), z.literal(3), z.literal(4)]).optional(),
  recipe: objectId.optional(),
});
export type ForgeProcessFilters = z.infer<typeof forgeProcessFilters>;

/** Admin `getForgeProcessesAll {paging, filters}`: every member's processes, newest first. */
export const getForgeProcessesAllRequest = z.strictObject({ paging, filters: forgeProcessFilters.optional() });
export type GetForgeProcessesAllRequest = z.infer<typeof getForgeProcessesAllRequest>;

export const forgeProcessesResponse = z.object({
  processes: z.array(forgeProcess),
  total: z.number().int(),
  totalCapped,
  message: z.string(),
});
export type ForgeProcessesResponse = z.infer<typeof forgeProcessesResponse>;
