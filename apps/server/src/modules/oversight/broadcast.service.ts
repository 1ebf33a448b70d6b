/** The admin's broadcast (DESIGN §11.3): one notification to every member, or every member of a role. */
import {
  ADMIN_CATEGORY,
  type BroadcastRequest,
  type BroadcastsRequest,
  type BroadcastsResponse,
} from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import { withLiveChanges } from '../../http/money-moving.ts';
import type { ChangePublisher } from '../../lib/live-changes.ts';
import { writeBroadcast } from '../notifications/notifications.public.ts';
import { insertAdminLog } from './admin-log.queries.ts';
import { findBroadcasts } from './broadcast.queries.ts';

/**
 * `broadcast {title, body, link?, role?}`: writes one broadcast row (none per member) and its admin log row
 * (category 42) in one transaction; once committed, every signed-in socket of its members gets it. Answers
 * `{message}`.
 */
export async function sendBroadcast(
  db: Db,
  changesOut: ChangePublisher,
  admin: AuthUser,
  input: BroadcastRequest,
  address: string,
): Promise<{ message: string }> {
  const to = input.role ? `every ${input.role}` : 'every member';
  await withLiveChanges(changesOut, (changes) =>
    inTransaction(db, async (tx) => {
      const role = input.role ?? null;
      const b = { kind: 'broadcast' as const, title: input.title, body: input.body, link: input.link ?? null };
      await writeBroadcast(tx, { ...b, role, createdBy: admin.id }, changes);
      await insertAdminLog(tx, {
        adminId: admin.id,
        address,
        category: ADMIN_CATEGORY.Broadcast,
        action: `Broadcast to ${to}: ${input.title}`,
      });
    }),
  );
  return { message: `Broadcast sent to ${to}` };
}

/** Admin: a page of the broadcasts sent (DESIGN §11.3), newest first, with `total`. */
export async function listBroadcasts(db: Db, { paging }: BroadcastsRequest): Promise<BroadcastsResponse> {
  const found = await findBroadcasts(db, { limit: paging.limit, offset: (paging.page - 1) * paging.limit });
  return { ...found, message: 'OK' };
}
