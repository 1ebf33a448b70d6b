/**
 * What other modules may use of the items: writing and removing items inside another module's posting (a
 * checkout grants ships and takes them back, an opened chip yields one, a creator app makes collections),
 * and reading them for a member's profile; an item locked and moved by the marketplace's listing and sale;
 * which items are listed, for a creator app.
 */
export {
  deleteCheckoutItems,
  findCollection,
  findItems,
  insertCollection,
  insertItems,
  insertItemsAlong,
  type NewItem,
} from './items.queries.ts';
export { findListedItemIds, lockItem, moveItemAlong } from './ownership.queries.ts';
