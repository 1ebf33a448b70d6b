/** SQL of the oversight module's alert level (SPEC §3 defcon): one row. */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { alertLevel } from '../../db/schema/index.ts';

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
