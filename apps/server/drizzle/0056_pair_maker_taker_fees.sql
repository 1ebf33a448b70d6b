ALTER TABLE "exchange_pairs" ADD COLUMN "maker_fee" numeric(38, 9) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "exchange_pairs" ADD COLUMN "taker_fee" numeric(38, 9) DEFAULT '0' NOT NULL;--> statement-breakpoint
-- Existing pairs keep their rule: both sides pay the one fee they had.
UPDATE "exchange_pairs" SET "maker_fee" = "fee", "taker_fee" = "fee";--> statement-breakpoint
ALTER TABLE "exchange_pairs" ADD CONSTRAINT "exchange_pairs_maker_fee_fraction" CHECK ("exchange_pairs"."maker_fee" >= 0 AND "exchange_pairs"."maker_fee" <= 1);--> statement-breakpoint
ALTER TABLE "exchange_pairs" ADD CONSTRAINT "exchange_pairs_taker_fee_fraction" CHECK ("exchange_pairs"."taker_fee" >= 0 AND "exchange_pairs"."taker_fee" <= 1);