/**
 * Gifts (DESIGN §11.5): a member sends one of their items to another member by nickname. The check and
 * the move are one transaction with the recipient's `items_received` notification, so a gift is whole or
 * not at all, and two gifts of one item move it once.
 */
import { AppError, type GiftItemRequest, MESSAGES } from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { findUserByNickname } from '../accounts/accounts.public.ts';
import { notify } from '../notifications/notifications.public.ts';
import { hasOpenListing, lockItem, moveItem } from './ownership.queries.ts';

/** The 404 of an item that does not exist or is another member's: the two are told apart to no one. */
export const ITEM_NOT_FOUND = 'Item not found';
/** The 409 of a gift of an item with an open listing (DESIGN §11.5). */
export const ITEM_LISTED = 'This item is listed on the market: cancel the listing to gift it';
/** The 400 of a gift to oneself. */
export const GIFT_TO_SELF = 'You cannot gift an item to yourself';

/** Where a member sees their items: the Bank tab's holdings, opened on Game Items. */
const ITEMS_LINK = '/userbank?tab=bank&holdings=items';

/**
 * `giftItem {itemId, recipientNickName}` (member, DESIGN §11.5) -> `{message}` (`Gifted Falcon to bob`).
 * Locks the item, checks it is the sender's and the recipient an active member other than the sender
 * and not a system account, moves it, and writes the recipient's `items_received` notification in the
 * same transaction. Throws NOT_FOUND (`Item not found`: unknown or another's; `Recipient not found`:
 * unknown or inactive, as a transfer says), CONFLICT (the item is listed on the market) and VALIDATION
 * (oneself, a system account); nothing changes.
 */
export async function giftItem(
  db: Db,
  sender: AuthUser,
  input: GiftItemRequest,
  changes: LiveChanges,
): Promise<{ message: string }> {
  return inTransaction(db, async (tx) => {
    // Locked: a concurrent gift (or sale) of the same item waits here, then finds its new owner.
    const item = await lockItem(tx, input.itemId);
    if (!item || item.owner_id !== sender.id) throw new AppError('NOT_FOUND', ITEM_NOT_FOUND);
    // A listed item is locked to its listing until it sells or is cancelled.
    if (await hasOpenListing(tx, item.id)) throw new AppError('CONFLICT', ITEM_LISTED);
    const recipient = await findUserByNickname(tx, input.recipientNickName);
    if (!recipient?.isActive) throw new AppError('NOT_FOUND', MESSAGES.recipientNotFound);
    if (recipient.id === sender.id) throw new AppError('VALIDATION', GIFT_TO_SELF);
    if (recipient.isSystem) {
      throw new AppError('VALIDATION', `You cannot gift to ${recipient.nickname}: it is a system account`);
    }
    if (!(await moveItem(tx, input.itemId, sender.id, recipient.id))) {
      throw new Error(`item ${input.itemId} moved while locked`);
    }
    await notify(
      tx,
      [
        {
          userId: recipient.id,
          kind: 'items_received',
          title: `You received ${item.name}`,
          body: `A gift from ${sender.nickname}`,
          link: ITEMS_LINK,
        },
      ],
      changes,
    );
    // Both members' item lists and kept totals change; the collection's own total does not.
    changes.touchUser(sender.id);
    changes.touchUser(recipient.id);
    return { message: `Gifted ${item.name} to ${recipient.nickname}` };
  });
}
