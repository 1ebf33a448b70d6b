/** The Create Package dialog's values and the request built from them (SPEC §5 client forms). */
import { CREDITS_CURRENCY_ID, type CreatePackageRequest } from '@starlight/shared';

export interface PackageFormValues extends Record<string, unknown> {
  name: string;
  description: string;
  imgUrl: string;
  cost: string;
  amount: string;
  item1: number | string;
  item2: number | string;
}

export const EMPTY_PACKAGE_FORM: PackageFormValues = {
  name: '',
  description: '',
  imgUrl: '',
  cost: '',
  amount: '',
  item1: '',
  item2: '',
};

/** The request of the form's values (SPEC §5: package create always uses currency 3; empty fields dropped). */
export function toCreatePackage(v: PackageFormValues): CreatePackageRequest {
  const body: Record<string, unknown> = { currency: CREDITS_CURRENCY_ID };
  for (const key of ['name', 'description', 'imgUrl', 'cost', 'amount'] as const) {
    if (v[key].trim() !== '') body[key] = v[key].trim();
  }
  const items = ([1, 2] as const)
    .map((type) => ({ type, amount: v[`item${type}`] }))
    .filter((i) => i.amount !== '' && Number(i.amount) !== 0)
    .map((i) => ({ type: i.type, amount: Number(i.amount) }));
  if (items.length > 0) body.items = items;
  return body as CreatePackageRequest;
}
