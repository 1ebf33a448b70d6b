CREATE TABLE "forge_processes" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"user_id" char(24) NOT NULL,
	"recipe_id" char(24) NOT NULL,
	"recipe_name" text NOT NULL,
	"input_currency_id" integer NOT NULL,
	"input_amount" numeric(38, 9) NOT NULL,
	"output_currency_id" integer NOT NULL,
	"output_amount" numeric(38, 9) NOT NULL,
	"quantity" integer NOT NULL,
	"state" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finish_date" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "forge_processes_quantity" CHECK ("forge_processes"."quantity" >= 1),
	CONSTRAINT "forge_processes_state" CHECK ("forge_processes"."state" IN (1, 3, 4)),
	CONSTRAINT "forge_processes_amounts" CHECK ("forge_processes"."input_amount" > 0 AND "forge_processes"."output_amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "forge_recipes" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"img_url" text DEFAULT '' NOT NULL,
	"time_required" integer NOT NULL,
	"input_currency_id" integer NOT NULL,
	"input_amount" numeric(38, 9) NOT NULL,
	"output_currency_id" integer NOT NULL,
	"output_amount" numeric(38, 9) NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "forge_recipes_time" CHECK ("forge_recipes"."time_required" >= 1),
	CONSTRAINT "forge_recipes_amounts" CHECK ("forge_recipes"."input_amount" > 0 AND "forge_recipes"."output_amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "forge_processes" ADD CONSTRAINT "forge_processes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forge_processes" ADD CONSTRAINT "forge_processes_recipe_id_forge_recipes_id_fk" FOREIGN KEY ("recipe_id") REFERENCES "public"."forge_recipes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forge_processes" ADD CONSTRAINT "forge_processes_input_currency_id_currencies_currency_id_fk" FOREIGN KEY ("input_currency_id") REFERENCES "public"."currencies"("currency_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forge_processes" ADD CONSTRAINT "forge_processes_output_currency_id_currencies_currency_id_fk" FOREIGN KEY ("output_currency_id") REFERENCES "public"."currencies"("currency_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forge_recipes" ADD CONSTRAINT "forge_recipes_input_currency_id_currencies_currency_id_fk" FOREIGN KEY ("input_currency_id") REFERENCES "public"."currencies"("currency_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forge_recipes" ADD CONSTRAINT "forge_recipes_output_currency_id_currencies_currency_id_fk" FOREIGN KEY ("output_currency_id") REFERENCES "public"."currencies"("currency_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "forge_processes_user" ON "forge_processes" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "forge_processes_created" ON "forge_processes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "forge_recipes_created" ON "forge_recipes" USING btree ("created_at","id") WHERE "forge_recipes"."deleted_at" IS NULL;