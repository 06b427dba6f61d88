CREATE TABLE "name_blacklist" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"normalized" text NOT NULL,
	"kind" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	CONSTRAINT "name_blacklist_normalized_unique" UNIQUE("normalized"),
	CONSTRAINT "name_blacklist_kind_ck" CHECK ("name_blacklist"."kind" in ('payer', 'payee', 'both'))
);
--> statement-breakpoint
ALTER TABLE "name_blacklist" ADD CONSTRAINT "name_blacklist_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;