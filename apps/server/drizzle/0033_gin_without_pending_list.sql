-- Issue 19: the trigram indexes of the admin user search write each new nickname and e-mail into the
-- index at once. With GIN's fast update, new entries wait in a pending list that every search reads
-- whole until a vacuum merges it (1,064 registrations left 41 pages: a search of `member123` read 51
-- index pages instead of 10, at a million members; the list may grow to 4 MB). ALTER, not a rebuild:
-- a live database keeps its index; the pending list is merged once here.
ALTER INDEX "users_nickname_trgm" SET (fastupdate = false);--> statement-breakpoint
ALTER INDEX "users_email_trgm" SET (fastupdate = false);--> statement-breakpoint
SELECT gin_clean_pending_list('users_nickname_trgm'::regclass);--> statement-breakpoint
SELECT gin_clean_pending_list('users_email_trgm'::regclass);
