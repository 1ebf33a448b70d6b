/**
 * SQL of Credits packages (DESIGN §7): list, read, insert, flags, soft-delete.
 * Reads other modules' tables: `currencies` (Credits' precision for the amounts shown), joined in the list's one statement.
 */
import { type CheckoutPackage, CREDITS_CURRENCY_ID, formatAtPrecision, fromNumeric } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';
import { checkoutPackages, type PackageItem } from '../../db/schema/index.ts';
import { newObjectId } from '../../lib/ids.ts';

/** A package row as the service works with it (cost and amount as numeric text). */
export type PackageRow = typeof checkoutPackages.$inferSelect;

type PackageDtoRow = {
  id: string;
  name: string;
  description: string;
  img_url: string;
  cost: string;
  amount: string;
  precision: number;
  items: PackageItem[];
  active: boolean;
  published: boolean;
  created_at: string | Date;
};

/** Live packages matching `where` in wire shape (DESIGN §7), oldest first; Credits at their precision. */
async function selectPackages(db: DbOrTx, where: SQL): Promise<CheckoutPackage[]> {
  const rows = await queryPlanned<PackageDtoRow>(
    db,
    sql`
    SELECT p.id, p.name, p.description, p.img_url, p.cost::text AS cost, p.amount::text AS amount,
           c.precision, p.items, p.active, p.published, p.created_at
    FROM checkout_packages p JOIN currencies c ON c.currency_id = ${CREDITS_CURRENCY_ID}
    WHERE p.deleted_at IS NULL AND ${where}
    ORDER BY p.created_at, p.id`,
  );
  return rows.map((r) => {
    const amount = formatAtPrecision(fromNumeric(r.amount), Number(r.precision));
    return {
      _id: r.id,
      name: r.name,
      description: r.description,
      imgUrl: r.img_url,
      cost: formatAtPrecision(fromNumeric(r.cost), 2),
      currency: { currencyId: CREDITS_CURRENCY_ID, amount },
      amount,
      items: r.items,
      active: r.active,
      published: r.published,
      createdAt: new Date(r.created_at).toISOString(),
    };
  });
}

/** Every live package (admins), or only the published and active ones (members). */
export function findPackages(db: DbOrTx, onlyOnSale: boolean): Promise<CheckoutPackage[]> {
  return selectPackages(db, onlyOnSale ? sql`p.published AND p.active` : sql`true`);
}

/** One live package in wire shape, or null. */
export async function findPackageDto(db: DbOrTx, id: string): Promise<CheckoutPackage | null> {
  return (await selectPackages(db, sql`p.id = ${id}`))[0] ?? null;
}

/** The live package `id`, or null. */
export async function findPackage(db: DbOrTx, id: string): Promise<PackageRow | null> {
  const [row] = await db
    .select()
    .from(checkoutPackages)
    .where(sql`${checkoutPackages.id} = ${id} AND ${checkoutPackages.deletedAt} IS NULL`);
  return row ?? null;
}

/** Inserts a package (unpublished) and returns its id. */
export async function insertPackage(
  db: DbOrTx,
  values: Pick<PackageRow, 'name' | 'description' | 'imgUrl' | 'cost' | 'amount' | 'items' | 'active'>,
): Promise<string> {
  const id = newObjectId();
  await db.insert(checkoutPackages).values({ id, ...values });
  return id;
}

/**
 * Changes the live package `id`: `{active}` sets its flag; `'publish'` publishes it once (only while it
 * is not yet published, so a change that may happen once happens once); `'delete'` stamps `deleted_at`
 * (now). Returns whether a row changed.
 */
export async function updatePackage(
  db: DbOrTx,
  id: string,
  change: { active: boolean } | 'publish' | 'delete',
): Promise<boolean> {
  const fields = change === 'publish' ? { published: true } : change === 'delete' ? { deletedAt: sql`now()` } : change;
  const onlyIf = change === 'publish' ? sql` AND NOT ${checkoutPackages.published}` : sql``;
  const rows = await db
    .update(checkoutPackages)
    .set(fields)
    .where(sql`${checkoutPackages.id} = ${id} AND ${checkoutPackages.deletedAt} IS NULL${onlyIf}`)
    .returning({ id: checkoutPackages.id });
  return rows.length > 0;
}
