/** SQL of the oversight module's admin log: its rows, written in the caller's transaction. */
import type { DbOrTx } from '../../db/client.ts';
import { adminLogs } from '../../db/schema/index.ts';
import { newObjectId } from '../../lib/ids.ts';

/** Writes one admin log row (SPEC §3 admin action categories). */
export async function insertAdminLog(
  db: DbOrTx,
  row: { adminId: string; affectedUserId?: string | null; address: string; category: number; action: string },
): Promise<void> {
  await db.insert(adminLogs).values({ id: newObjectId(), affectedUserId: null, ...row });
}

/** Writes several admin log rows in one statement (a group-commit batch of mints and burns). */
export async function insertAdminLogs(
  db: DbOrTx,
  rows: ReadonlyArray<{
    adminId: string;
    affectedUserId: string | null;
    address: string;
    category: number;
    action: string;
  }>,
): Promise<void> {
  if (rows.length > 0) await db.insert(adminLogs).values(rows.map((row) => ({ id: newObjectId(), ...row })));
}
