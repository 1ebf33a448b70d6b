/**
 * What other modules may use of notifications (DESIGN §11.3): writing a member's notifications, or a
 * broadcast, inside the caller's own transaction, so a notification commits with what it announces (none
 * lost, none invented) and reaches the member's sockets after the commit. `insertNotificationsAlong`: the
 * same rows written by a ledger posting's own statement, for batches that must stay one round trip.
 */
export { insertNotificationsAlong, type NewNotification } from './notifications.queries.ts';
export {
  notify,
  securityNotice,
  settleForgeReady,
  withdrawForgeReady,
  writeBroadcast,
} from './notifications.service.ts';
