import type { Recipe } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { EMPTY_RECIPE_FORM, recipeFormValues, toCreateRecipe, toModifyRecipe } from './recipe-form.ts';

const recipe: Recipe = {
  _id: 'r1',
  name: 'Smelt',
  description: 'Turns ore into ingots',
  imgUrl: 'https://example.com/i.png',
  timeRequired: 3600,
  input: { currencyId: 1, amount: '10.00' },
  output: { currencyId: 2, amount: '1' },
  active: true,
  createdAt: '2026-11-24T00:00:00.000Z',
};

describe('recipe form', () => {
  it('drops empty fields and sends numbers for the time and currency ids', () => {
    const body = toCreateRecipe({
      ...EMPTY_RECIPE_FORM,
      name: ' Smelt ',
      timeRequired: 60,
      input: { currencyId: '1', amount: '2.5' },
    });
    expect(body).toEqual({
      name: 'Smelt',
      timeRequired: 60,
      input: { currencyId: 1, amount: '2.5' },
      output: {},
      active: true,
    });
  });

  it('modify sends only the changed fields, a side whole when part of it changed', () => {
    const before = recipeFormValues(recipe);
    expect(toModifyRecipe('r1', before, before)).toEqual({ recipeId: 'r1' });
    const changed = { ...before, name: 'Smelt fast', input: { currencyId: '1', amount: '12' } };
    expect(toModifyRecipe('r1', before, changed)).toEqual({
      recipeId: 'r1',
      name: 'Smelt fast',
      input: { currencyId: 1, amount: '12' },
    });
    expect(toModifyRecipe('r1', before, { ...before, imgUrl: '' })).toEqual({ recipeId: 'r1', imgUrl: '' });
  });
});
