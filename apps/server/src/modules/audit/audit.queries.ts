/** SQL of the audit module: admin log rows and the alert level. */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { adminLogs, alertLevel } from '../../db/schema/index.ts';
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

/** The alert level: `{defconLvl, defconMsg}` (level 0 when never set). */
export async function findAlertLevel(db: DbOrTx): Promise<{ defconLvl: number; defconMsg: string }> {
  const [row] = await db.select().from(alertLevel).where(eq(alertLevel.id, 1)).limit(1);
  return { defconLvl: row?.defconLvl ?? 0, defconMsg: row?.defconMsg ?? '' };
}

/** Sets the alert level. */
export async function upsertAlertLevel(db: DbOrTx, defconLvl: number, defconMsg: string): Promise<void> {
  await db
    .insert(alertLevel)
    .values({ id: 1, defconLvl, defconMsg })
    .onConflictDoUpdate({ target: alertLevel.id, set: { defconLvl, defconMsg, updatedAt: new Date() } });
}
