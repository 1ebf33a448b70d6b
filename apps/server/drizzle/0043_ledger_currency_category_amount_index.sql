-- The Tnx Logs' amount bound on a currency or a category without a party (reports/amount-bound.queries.ts):
-- each (currency, category) range's matches are counted up to a bound here and, when few, read from here
-- and sorted, where bank_tx_currency_category_created's date order compared every row of the range to find
-- a rare amount (a category's transfers of 100 or more). INCLUDE (created_at, id) by hand (drizzle has
-- none), so the page's ids and its count are read index-only.
CREATE INDEX "bank_tx_currency_category_amount" ON "bank_transactions" USING btree ("currency_id","category","amount") INCLUDE ("created_at","id");
