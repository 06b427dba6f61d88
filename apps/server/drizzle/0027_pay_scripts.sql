CREATE TABLE "pay_script_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"script_id" integer NOT NULL,
	"version" integer NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"order_code" text,
	"ok" boolean NOT NULL,
	"input" jsonb NOT NULL,
	"output" jsonb,
	"error" text,
	"duration_ms" integer NOT NULL,
	"fetches" jsonb NOT NULL,
	"logs" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	CONSTRAINT "pay_script_calls_kind_ck" CHECK ("pay_script_calls"."kind" in ('render', 'parse')),
	CONSTRAINT "pay_script_calls_source_ck" CHECK ("pay_script_calls"."source" in ('test', 'payerPage'))
);
--> statement-breakpoint
CREATE TABLE "pay_script_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"script_id" integer NOT NULL,
	"version" integer NOT NULL,
	"code" text NOT NULL,
	"hosts" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	CONSTRAINT "pay_script_versions_ck" CHECK ("pay_script_versions"."version" > 0)
);
--> statement-breakpoint
CREATE TABLE "pay_scripts" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"active_version" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "pay_script_id" integer;--> statement-breakpoint
ALTER TABLE "pay_script_calls" ADD CONSTRAINT "pay_script_calls_script_id_pay_scripts_id_fk" FOREIGN KEY ("script_id") REFERENCES "public"."pay_scripts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_script_versions" ADD CONSTRAINT "pay_script_versions_script_id_pay_scripts_id_fk" FOREIGN KEY ("script_id") REFERENCES "public"."pay_scripts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pay_script_calls_created_idx" ON "pay_script_calls" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "pay_script_calls_script_idx" ON "pay_script_calls" USING btree ("script_id","id");--> statement-breakpoint
CREATE INDEX "pay_script_calls_order_idx" ON "pay_script_calls" USING btree ("order_code","id") WHERE "pay_script_calls"."order_code" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "pay_script_versions_uq" ON "pay_script_versions" USING btree ("script_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "pay_scripts_name_uq" ON "pay_scripts" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_pay_script_id_pay_scripts_id_fk" FOREIGN KEY ("pay_script_id") REFERENCES "public"."pay_scripts"("id") ON DELETE no action ON UPDATE no action;