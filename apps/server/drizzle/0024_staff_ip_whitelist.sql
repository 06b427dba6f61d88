CREATE TABLE "staff_ip_whitelist" (
	"id" serial PRIMARY KEY NOT NULL,
	"entry" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	CONSTRAINT "staff_ip_whitelist_entry_unique" UNIQUE("entry")
);
--> statement-breakpoint
ALTER TABLE "staff_ip_whitelist" ADD CONSTRAINT "staff_ip_whitelist_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;