-- Issue 19 §2: the admin user list's indexes (pg_trgm for part-of-a-word search) and the kept user stats.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "user_holdings" (
	"user_id" char(24) PRIMARY KEY NOT NULL,
	"positive" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_stats_daily" (
	"day" date NOT NULL,
	"slot" smallint NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"verified" integer DEFAULT 0 NOT NULL,
	"wallet" integer DEFAULT 0 NOT NULL,
	"anonymous" integer DEFAULT 0 NOT NULL,
	"disabled" integer DEFAULT 0 NOT NULL,
	"admin" integer DEFAULT 0 NOT NULL,
	"have_currency" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "user_stats_daily_day_slot_pk" PRIMARY KEY("day","slot")
);
--> statement-breakpoint
DROP INDEX "users_created_at";--> statement-breakpoint
CREATE INDEX "users_inactive_created" ON "users" USING btree ("created_at","id") WHERE NOT "users"."is_active";--> statement-breakpoint
CREATE INDEX "users_wallet_only_created" ON "users" USING btree ("created_at","id") WHERE "users"."is_wallet_only";--> statement-breakpoint
CREATE INDEX "users_anonymous_created" ON "users" USING btree ("created_at","id") WHERE "users"."is_anonymous";--> statement-breakpoint
CREATE INDEX "users_staff_created" ON "users" USING btree ("role","created_at","id") WHERE "users"."role" <> 'user';--> statement-breakpoint
CREATE INDEX "users_nickname_trgm" ON "users" USING gin (lower("nickname") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
-- INCLUDE by hand (drizzle has none): a page filtered by role or a flag, and a deep OFFSET, stay index-only.
CREATE INDEX "users_created_at" ON "users" USING btree ("created_at","id") INCLUDE ("role","is_active","is_wallet_only","is_email_verified","is_anonymous");--> statement-breakpoint
-- Kept user stats (issue 19 §2, SPEC §3 getUserStats): counts per UTC day of creation, kept by triggers,
-- so getUserStats sums at most a few rows per day instead of scanning users.
-- A row per (day, slot): a writer adds to slot pg_backend_pid() % 8, so concurrent registrations of
-- the same day do not queue on one row lock; a read sums the slots.
CREATE FUNCTION user_stats_add(d date, t int, v int, w int, a int, x int, ad int, hc int) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO user_stats_daily AS s (day, slot, total, verified, wallet, anonymous, disabled, admin, have_currency)
  VALUES (d, (pg_backend_pid() % 8)::smallint, t, v, w, a, x, ad, hc)
  ON CONFLICT (day, slot) DO UPDATE SET
    total = s.total + EXCLUDED.total, verified = s.verified + EXCLUDED.verified,
    wallet = s.wallet + EXCLUDED.wallet, anonymous = s.anonymous + EXCLUDED.anonymous,
    disabled = s.disabled + EXCLUDED.disabled, admin = s.admin + EXCLUDED.admin,
    have_currency = s.have_currency + EXCLUDED.have_currency
$$;--> statement-breakpoint
-- A users row adds its flags to the day it was created in (NEW) and takes them from OLD's day.
CREATE FUNCTION users_kept_stats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE hc int;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    hc := coalesce((SELECT (h.positive > 0)::int FROM user_holdings h WHERE h.user_id = OLD.id), 0);
    PERFORM user_stats_add((OLD.created_at AT TIME ZONE 'UTC')::date, -1, -OLD.is_email_verified::int,
      -(OLD.primary_wallet IS NOT NULL)::int, -OLD.is_anonymous::int, -(NOT OLD.is_active)::int,
      -(OLD.role = 'admin')::int, -hc);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    IF TG_OP = 'INSERT' THEN
      hc := coalesce((SELECT (h.positive > 0)::int FROM user_holdings h WHERE h.user_id = NEW.id), 0);
    END IF;
    PERFORM user_stats_add((NEW.created_at AT TIME ZONE 'UTC')::date, 1, NEW.is_email_verified::int,
      (NEW.primary_wallet IS NOT NULL)::int, NEW.is_anonymous::int, (NOT NEW.is_active)::int,
      (NEW.role = 'admin')::int, hc);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER users_kept_stats_insert_delete AFTER INSERT OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION users_kept_stats();--> statement-breakpoint
-- Only the updates that change a counted column do anything (token versions, fame, keys do not).
CREATE TRIGGER users_kept_stats_update AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at
     OR OLD.is_email_verified IS DISTINCT FROM NEW.is_email_verified
     OR (OLD.primary_wallet IS NULL) IS DISTINCT FROM (NEW.primary_wallet IS NULL)
     OR OLD.is_anonymous IS DISTINCT FROM NEW.is_anonymous
     OR OLD.is_active IS DISTINCT FROM NEW.is_active
     OR (OLD.role = 'admin') IS DISTINCT FROM (NEW.role = 'admin'))
  EXECUTE FUNCTION users_kept_stats();--> statement-breakpoint
-- haveCurrency: each member's count of positive balances, moved only when a balance crosses zero. When
-- the count itself crosses zero the member's creation day gains or loses a holder.
CREATE FUNCTION balances_kept_holders() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE uid char(24); d int; n int;
BEGIN
  IF TG_OP = 'DELETE' THEN
    uid := OLD.user_id; d := -1;
  ELSE
    uid := NEW.user_id; d := CASE WHEN NEW.amount > 0 THEN 1 ELSE -1 END;
  END IF;
  INSERT INTO user_holdings AS h (user_id, positive) VALUES (uid, greatest(d, 0))
    ON CONFLICT (user_id) DO UPDATE SET positive = h.positive + d
    RETURNING h.positive INTO n;
  IF (d = 1 AND n = 1) OR (d = -1 AND n = 0) THEN
    PERFORM user_stats_add((u.created_at AT TIME ZONE 'UTC')::date, 0, 0, 0, 0, 0, 0, d)
      FROM users u WHERE u.id = uid;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- WHEN clauses: a posting that keeps a balance on the same side of zero (nearly all) queues nothing.
CREATE TRIGGER balances_kept_holders_insert AFTER INSERT ON balances FOR EACH ROW
  WHEN (NEW.amount > 0) EXECUTE FUNCTION balances_kept_holders();--> statement-breakpoint
CREATE TRIGGER balances_kept_holders_update AFTER UPDATE ON balances FOR EACH ROW
  WHEN ((OLD.amount > 0) IS DISTINCT FROM (NEW.amount > 0)) EXECUTE FUNCTION balances_kept_holders();--> statement-breakpoint
CREATE TRIGGER balances_kept_holders_delete AFTER DELETE ON balances FOR EACH ROW
  WHEN (OLD.amount > 0) EXECUTE FUNCTION balances_kept_holders();--> statement-breakpoint
-- The first build, from the rows already there (rebuildUserStats in admin.queries.ts does the same).
INSERT INTO user_holdings (user_id, positive)
  SELECT user_id, count(*) FROM balances WHERE amount > 0 GROUP BY user_id;--> statement-breakpoint
INSERT INTO user_stats_daily (day, slot, total, verified, wallet, anonymous, disabled, admin, have_currency)
  SELECT (u.created_at AT TIME ZONE 'UTC')::date, 0, count(*), count(*) FILTER (WHERE u.is_email_verified),
         count(*) FILTER (WHERE u.primary_wallet IS NOT NULL), count(*) FILTER (WHERE u.is_anonymous),
         count(*) FILTER (WHERE NOT u.is_active), count(*) FILTER (WHERE u.role = 'admin'),
         count(*) FILTER (WHERE h.positive > 0)
  FROM users u LEFT JOIN user_holdings h ON h.user_id = u.id GROUP BY 1;
