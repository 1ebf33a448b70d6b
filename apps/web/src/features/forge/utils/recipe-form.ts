/**
 * The Create / Modify Recipe dialog's values and the requests built from them (SPEC §5 client forms:
 * empty values dropped; Recipe modify sends only the changed fields).
 */
import type { CreateRecipeRequest, ModifyRecipeRequest, Recipe } from '@starlight/shared';

export interface RecipeFormValues extends Record<string, unknown> {
  name: string;
  description: string;
  imgUrl: string;
  /** Seconds, as typed. */
  timeRequired: number | string;
  input: { currencyId: string; amount: string };
  output: { currencyId: string; amount: string };
  active: boolean;
}

export const EMPTY_RECIPE_FORM: RecipeFormValues = {
  name: '',
  description: '',
  imgUrl: '',
  timeRequired: '',
  input: { currencyId: '', amount: '' },
  output: { currencyId: '', amount: '' },
  active: true,
};

/** The form's values for an existing recipe. */
export function recipeFormValues(r: Recipe): RecipeFormValues {
  return {
    name: r.name,
    description: r.description,
    imgUrl: r.imgUrl,
    timeRequired: r.timeRequired,
    input: { currencyId: String(r.input.currencyId), amount: r.input.amount },
    output: { currencyId: String(r.output.currencyId), amount: r.output.amount },
    active: r.active,
  };
}

const side = (s: { currencyId: string; amount: string }) => ({
  ...(s.currencyId === '' ? {} : { currencyId: Number(s.currencyId) }),
  ...(s.amount.trim() === '' ? {} : { amount: s.amount.trim() }),
});

/** `recipes/create`'s body: blank text fields dropped, the time and currency ids as numbers. */
export function toCreateRecipe(v: RecipeFormValues): CreateRecipeRequest {
  const body: Record<string, unknown> = { input: side(v.input), output: side(v.output), active: v.active };
  for (const key of ['name', 'description', 'imgUrl'] as const) if (v[key].trim() !== '') body[key] = v[key].trim();
  if (v.timeRequired !== '') body.timeRequired = Number(v.timeRequired);
  return body as CreateRecipeRequest;
}

/** `recipes/modify`'s body: `recipeId` and only what differs from `before` (a side whole when any part changed). */
export function toModifyRecipe(recipeId: string, before: RecipeFormValues, v: RecipeFormValues): ModifyRecipeRequest {
  const next = toCreateRecipe(v) as Record<string, unknown>;
  const old = toCreateRecipe(before) as Record<string, unknown>;
  const body: Record<string, unknown> = { recipeId };
  for (const [key, value] of Object.entries(next)) {
    if (JSON.stringify(value) !== JSON.stringify(old[key])) body[key] = value;
  }
  // A field cleared in the form is not "changed to nothing": the server keeps it (imgUrl may be set to '').
  if (before.imgUrl !== '' && v.imgUrl.trim() === '') body.imgUrl = '';
  return body as ModifyRecipeRequest;
}
