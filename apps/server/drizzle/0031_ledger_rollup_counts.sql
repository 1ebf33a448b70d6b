-- Issue 19 §2: a deep page of Tnx Logs steps through the rollup's row counts per day, hour and minute (about
-- 50 rows a day, 1,000 an hour's day at the scale seed); with `n` INCLUDEd they are read from the index alone:
-- 4.6 -> 2.3 ms a page. INCLUDE by hand (drizzle has none), as migrations 0022, 0027 and 0028 have it.
CREATE INDEX "ledger_rollup_counts" ON "ledger_rollup" USING btree ("grain","bucket") INCLUDE ("n");
