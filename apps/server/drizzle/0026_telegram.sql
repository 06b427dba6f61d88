CREATE TABLE "message_templates" (
	"key" text NOT NULL,
	"language" text NOT NULL,
	"text" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" integer,
	CONSTRAINT "message_templates_key_language_pk" PRIMARY KEY("key","language")
);
--> statement-breakpoint
CREATE TABLE "telegram_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"position" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"chat_id" text NOT NULL,
	"name" text NOT NULL,
	"party_kind" text NOT NULL,
	"party_id" integer,
	"language" text DEFAULT 'zh-CN' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "telegram_groups_language_ck" CHECK ("telegram_groups"."language" in ('zh-CN', 'zh-TW', 'en-US')),
	CONSTRAINT "telegram_groups_party_ck" CHECK (("telegram_groups"."party_kind" = 'staff' and "telegram_groups"."party_id" is null) or ("telegram_groups"."party_kind" in ('merchant', 'supplier') and "telegram_groups"."party_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "telegram_whitelist" (
	"id" serial PRIMARY KEY NOT NULL,
	"telegram_user_id" text NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_groups_chat_uq" ON "telegram_groups" USING btree ("chat_id");--> statement-breakpoint
CREATE INDEX "telegram_groups_party_idx" ON "telegram_groups" USING btree ("party_kind","party_id");--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_whitelist_user_uq" ON "telegram_whitelist" USING btree ("telegram_user_id");