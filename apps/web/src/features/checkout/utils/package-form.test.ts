import { describe, expect, it } from 'vitest';
import { EMPTY_PACKAGE_FORM, toCreatePackage } from './package-form.ts';

describe('package form', () => {
  it('always sends currency 3, drops empty fields and item grants of 0', () => {
    expect(
      toCreatePackage({ ...EMPTY_PACKAGE_FORM, name: ' Starter ', cost: '4.99', amount: '500', item1: 0 }),
    ).toEqual({
      currency: 3,
      name: 'Starter',
      cost: '4.99',
      amount: '500',
    });
  });

  it('sends the item grants typed in, as type 1 and 2', () => {
    expect(toCreatePackage({ ...EMPTY_PACKAGE_FORM, item1: 2, item2: '' }).items).toEqual([{ type: 1, amount: 2 }]);
    expect(toCreatePackage({ ...EMPTY_PACKAGE_FORM, item1: 1, item2: 3 }).items).toEqual([
      { type: 1, amount: 1 },
      { type: 2, amount: 3 },
    ]);
  });
});
