-- A member's orders of one state, and of one pair and state, newest first (market.service.ts myOrdersPage):
-- the pages of the Quantum Hub's My orders and the dashboard's open orders read one range of one of these
-- indexes (exchange_orders_user mixed every state, so a filter on state read all of a member's orders).
CREATE INDEX "exchange_orders_user_state" ON "exchange_orders" USING btree ("user_id","state","seq");--> statement-breakpoint
CREATE INDEX "exchange_orders_user_pair_state" ON "exchange_orders" USING btree ("user_id","pair_id","state","seq");