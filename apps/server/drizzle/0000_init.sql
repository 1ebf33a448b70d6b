CREATE TABLE "balances" (
	"user_id" char(24) NOT NULL,
	"currency_id" integer NOT NULL,
	"amount" numeric(38, 9) DEFAULT '0' NOT NULL,
	CONSTRAINT "balances_user_id_currency_id_pk" PRIMARY KEY("user_id","currency_id"),
	CONSTRAINT "balances_amount_nonnegative" CHECK ("balances"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "bank_transactions" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"category" integer NOT NULL,
	"currency_id" integer NOT NULL,
	"amount" numeric(38, 9) NOT NULL,
	"executor_id" char(24),
	"sender_id" char(24),
	"recipient_id" char(24),
	"escrow" boolean DEFAULT false NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"reference" text,
	CONSTRAINT "bank_transactions_amount_positive" CHECK ("bank_transactions"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "currencies" (
	"currency_id" integer PRIMARY KEY NOT NULL,
	"ticker" text NOT NULL,
	"name" text NOT NULL,
	"precision" integer NOT NULL,
	"can_deposit" boolean DEFAULT false NOT NULL,
	"can_withdraw" boolean DEFAULT false NOT NULL,
	"can_transfer" boolean DEFAULT false NOT NULL,
	"can_mint" boolean DEFAULT false NOT NULL,
	"can_burn" boolean DEFAULT false NOT NULL,
	"is_frozen" boolean DEFAULT false NOT NULL,
	"frozen_note" text DEFAULT '' NOT NULL,
	"deposit_tax" numeric(38, 9) DEFAULT '0' NOT NULL,
	"withdraw_tax" numeric(38, 9) DEFAULT '0' NOT NULL,
	"transfer_tax" numeric(38, 9) DEFAULT '0' NOT NULL,
	"tax_collector" text DEFAULT '' NOT NULL,
	"img_url" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "access_logs" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" char(24) NOT NULL,
	"address" text NOT NULL,
	"login_type" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_logs" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"admin_id" char(24) NOT NULL,
	"affected_user_id" char(24),
	"address" text NOT NULL,
	"category" integer NOT NULL,
	"action" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_level" (
	"id" integer PRIMARY KEY NOT NULL,
	"defcon_lvl" integer DEFAULT 0 NOT NULL,
	"defcon_msg" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" char(24) NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"nickname" text NOT NULL,
	"email" text,
	"password_hash" text,
	"role" text DEFAULT 'user' NOT NULL,
	"primary_wallet" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_wallet_only" boolean DEFAULT false NOT NULL,
	"is_email_verified" boolean DEFAULT false NOT NULL,
	"is_anonymous" boolean DEFAULT false NOT NULL,
	"referrer_id" char(24),
	"fame" integer DEFAULT 0 NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "balances_currency" ON "balances" USING btree ("currency_id","amount");--> statement-breakpoint
CREATE INDEX "bank_tx_sender" ON "bank_transactions" USING btree ("sender_id","created_at");--> statement-breakpoint
CREATE INDEX "bank_tx_recipient" ON "bank_transactions" USING btree ("recipient_id","created_at");--> statement-breakpoint
CREATE INDEX "bank_tx_created" ON "bank_transactions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "bank_tx_currency_category" ON "bank_transactions" USING btree ("currency_id","category");--> statement-breakpoint
CREATE UNIQUE INDEX "currencies_ticker_upper" ON "currencies" USING btree (upper("ticker"));--> statement-breakpoint
CREATE INDEX "access_logs_user" ON "access_logs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "admin_logs_created" ON "admin_logs" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_keys_pk" ON "idempotency_keys" USING btree ("user_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "users_nickname_lower" ON "users" USING btree (lower("nickname"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "users_created_at" ON "users" USING btree ("created_at");