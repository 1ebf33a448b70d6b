/**
 * Credits packages (DESIGN §7; SPEC §2 Checkout Control, §4 Packages): members see the published and
 * active ones; admins create, publish (once, never undone), activate or deactivate and delete them,
 * each with an admin log row (SPEC §3 categories 7-10).
 */
import {
  ADMIN_CATEGORY,
  AppError,
  CREDITS_CURRENCY_ID,
  type CreatePackageInput,
  formatAmount,
  type PackageResponse,
  type PackagesResponse,
  type ProviderId,
} from '@starlight/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import { requireCurrency, requirePrecision } from '../bank/currencies.service.ts';
import { insertAdminLog } from '../oversight/oversight.public.ts';
import { findPackage, findPackageDto, findPackages, insertPackage, updatePackage } from './packages.queries.ts';

async function packageDto(db: DbOrTx, id: string) {
  const found = await findPackageDto(db, id);
  if (!found) throw new AppError('NOT_FOUND', 'Package not found');
  return found;
}

/**
 * `packages/fetch` (DESIGN §7): members get the published and active packages, admins every live one.
 * `No Packages` when empty. `providers` are the provider ids a purchase can use now (ours, beyond
 * DESIGN's shape), empty when no payment provider is configured.
 */
export async function fetchPackages(
  db: Db,
  viewer: AuthUser | null,
  providers: ProviderId[],
): Promise<PackagesResponse> {
  const packages = await findPackages(db, viewer?.role !== 'admin');
  return {
    packages,
    providers,
    message: packages.length === 0 ? 'No Packages' : `Got ${packages.length} package(s)`,
  };
}

/**
 * Admin `packages/create` (DESIGN §7): an unpublished package of Credits (currency 3), active unless
 * `active: false`, admin log category 7. Throws VALIDATION when `amount` is finer than the Credits' precision.
 */
export async function createPackage(
  db: Db,
  admin: AuthUser,
  input: CreatePackageInput,
  address: string,
): Promise<PackageResponse> {
  return inTransaction(db, async (tx) => {
    const credits = await requireCurrency(tx, CREDITS_CURRENCY_ID);
    requirePrecision(input.amount, credits);
    const id = await insertPackage(tx, {
      name: input.name,
      description: input.description,
      imgUrl: input.imgUrl ?? '',
      cost: formatAmount(input.cost, 2),
      amount: formatAmount(input.amount),
      items: input.items ?? [],
      active: input.active ?? true,
    });
    await insertAdminLog(tx, {
      adminId: admin.id,
      address,
      category: ADMIN_CATEGORY.CreateCheckoutPackage,
      action: `Created checkout package ${input.name} (${id})`,
    });
    return { package: await packageDto(tx, id), message: 'Package created' };
  });
}

/** One admin change of a package: `change` writes it (false: not applicable), then the log row. */
async function changePackage(
  db: Db,
  admin: AuthUser,
  id: string,
  address: string,
  what: {
    category: number;
    action: string;
    message: string;
    change: (tx: DbOrTx) => Promise<boolean>;
    refusal: string;
  },
): Promise<PackageResponse> {
  return inTransaction(db, async (tx) => {
    const before = await findPackage(tx, id);
    if (!before) throw new AppError('NOT_FOUND', 'Package not found');
    const shown = await packageDto(tx, id);
    if (!(await what.change(tx))) throw new AppError('CONFLICT', what.refusal);
    await insertAdminLog(tx, {
      adminId: admin.id,
      address,
      category: what.category,
      action: `${what.action} checkout package ${before.name} (${id})`,
    });
    const after = await findPackageDto(tx, id);
    return { package: after ?? shown, message: what.message };
  });
}

/** Admin `packages/delete {objectId}`: it leaves every list; its checkouts keep pointing at it. Category 8. */
export function deletePackage(db: Db, admin: AuthUser, id: string, address: string): Promise<PackageResponse> {
  return changePackage(db, admin, id, address, {
    category: ADMIN_CATEGORY.DeleteCheckoutPackage,
    action: 'Deleted',
    message: 'Package deleted',
    refusal: 'Package not found',
    change: (tx) => updatePackage(tx, id, 'delete'),
  });
}

/** Admin `packages/publish {objectId}`: once, never undone (CONFLICT `Package already published`). Category 9. */
export function publishPackage(db: Db, admin: AuthUser, id: string, address: string): Promise<PackageResponse> {
  return changePackage(db, admin, id, address, {
    category: ADMIN_CATEGORY.PublishCheckoutPackage,
    action: 'Published',
    message: 'Package published',
    refusal: 'Package already published',
    change: (tx) => updatePackage(tx, id, 'publish'),
  });
}

/** Admin `packages/setactive {objectId, flag}`. Category 10. */
export function setPackageActive(
  db: Db,
  admin: AuthUser,
  input: { objectId: string; flag: boolean },
  address: string,
): Promise<PackageResponse> {
  return changePackage(db, admin, input.objectId, address, {
    category: ADMIN_CATEGORY.ChangedCheckoutPackageActiveState,
    action: input.flag ? 'Activated' : 'Deactivated',
    message: input.flag ? 'Package activated' : 'Package deactivated',
    refusal: 'Package not found',
    change: (tx) => updatePackage(tx, input.objectId, { active: input.flag }),
  });
}
