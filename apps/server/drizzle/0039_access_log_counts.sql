CREATE TABLE "access_log_counts" (
	"user_id" char(24) PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
-- Issue 19 §2: each member's number of sign-ins, kept on write. The Access Logs list filtered by one
-- member counted up to COUNT_CAP of their index entries on every page view (the scale seed's member1:
-- 6,359 sign-ins, 1.3 ms a page); the kept count answers in one row, exact. One statement trigger with the
-- inserted rows as a table, so a bulk insert adds once per member; members in id order, so concurrent
-- statements lock their rows in one order. access_logs is append-only (0008): the count only grows.
CREATE FUNCTION access_logs_kept_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO access_log_counts AS c (user_id, n)
    SELECT user_id, count(*) FROM inserted GROUP BY user_id ORDER BY user_id
    ON CONFLICT (user_id) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER access_logs_kept_count
  AFTER INSERT ON access_logs REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION access_logs_kept_count();--> statement-breakpoint
-- The first count, from the rows already there (rebuildAccessLogCounts in users.queries.ts does the same).
INSERT INTO access_log_counts (user_id, n) SELECT user_id, count(*) FROM access_logs GROUP BY user_id;
