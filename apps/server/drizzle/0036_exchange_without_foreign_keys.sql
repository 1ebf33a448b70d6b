-- Issue 20: exchange orders and trades no longer carry foreign keys. Each key made PostgreSQL check every
-- inserted row (an order its pair and its member, a trade its pair and both orders) and take a KEY SHARE
-- lock on the row it names: on one busy pair, every order of every batch locked that pair's row.
-- What still keeps their names real: members and pairs are never deleted (a pair is marked deleted and
-- keeps its row), an order is placed only by its signed-in member on a pair read and locked in the same
-- transaction, and a trade is written by the same statement that writes or updates both its orders.
ALTER TABLE "exchange_orders" DROP CONSTRAINT "exchange_orders_pair_id_exchange_pairs_id_fk";
--> statement-breakpoint
ALTER TABLE "exchange_orders" DROP CONSTRAINT "exchange_orders_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "exchange_trades" DROP CONSTRAINT "exchange_trades_pair_id_exchange_pairs_id_fk";
--> statement-breakpoint
ALTER TABLE "exchange_trades" DROP CONSTRAINT "exchange_trades_buy_order_id_exchange_orders_id_fk";
--> statement-breakpoint
ALTER TABLE "exchange_trades" DROP CONSTRAINT "exchange_trades_sell_order_id_exchange_orders_id_fk";
