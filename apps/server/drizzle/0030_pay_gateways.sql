CREATE TABLE "pay_gateways" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"base_url" text DEFAULT '' NOT NULL,
	"key_id" text DEFAULT '' NOT NULL,
	"key_secret_sealed" text,
	"webhook_secret_sealed" text,
	"remark" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" integer,
	CONSTRAINT "pay_gateways_kind_ck" CHECK ("pay_gateways"."kind" in ('payoutApi', 'collectionNotify'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "pay_gateways_name_uq" ON "pay_gateways" USING btree ("name");