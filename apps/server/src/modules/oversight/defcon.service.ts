/** The alert level (SPEC §3 defcon): read by every page, set by an admin. */
import { ADMIN_CATEGORY, type DefconResponse, type SetDefconRequest } from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import { withLiveChanges } from '../../http/money-moving.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import type { ChangePublisher, DefconChangedEvent } from '../../lib/live-changes.ts';
import { writeBroadcast } from '../notifications/notifications.public.ts';
import { insertAdminLog } from './admin-log.queries.ts';
import { findAlertLevel, upsertAlertLevel } from './defcon.queries.ts';

/** The current alert level: `{defconLvl, defconMsg, message}`. */
export async function getDefconLevel(db: Db): Promise<DefconResponse> {
  return { ...(await findAlertLevel(db)), message: 'OK' };
}

/**
 * Admin: sets the alert level (0 to 5) and its message, writes an admin log row (category 6) and an
 * `alert_level` notification to every member (one broadcast row, DESIGN §11.3) in the same transaction,
 * and publishes the change on the bus, so every open page shows it at once.
 */
export async function setDefconLevel(
  db: Db,
  live: { bus: EventBus; changes: ChangePublisher },
  admin: AuthUser,
  input: SetDefconRequest,
  address: string,
): Promise<{ message: string }> {
  await withLiveChanges(live.changes, (changes) =>
    inTransaction(db, async (tx) => {
      await upsertAlertLevel(tx, input.defconLvl, input.defconMsg);
      await insertAdminLog(tx, {
        adminId: admin.id,
        address,
        category: ADMIN_CATEGORY.SetDefconLevel,
        action: `Set defcon level ${input.defconLvl}: ${input.defconMsg}`,
      });
      const title = `Alert level ${input.defconLvl}`;
      const body = input.defconMsg.trim() || `The alert level is now ${input.defconLvl}.`;
      await writeBroadcast(
        tx,
        { kind: 'alert_level', title, body, link: null, role: null, createdBy: admin.id },
        changes,
      );
    }),
  );
  // Every open page of every server process shows the new level at once (its sockets get it).
  const event: DefconChangedEvent = { kind: 'defcon', defconLvl: input.defconLvl, defconMsg: input.defconMsg };
  await live.bus.publish(event);
  return { message: `Defcon level set to ${input.defconLvl}` };
}
