CREATE TABLE "payout_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"resource_id" integer NOT NULL,
	"supplier_id" integer NOT NULL,
	"supplier_user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"template_id" text NOT NULL,
	"payout_at" timestamp with time zone NOT NULL,
	"min_amount" bigint,
	"max_amount" bigint,
	"max_count" integer NOT NULL,
	"order_count" integer DEFAULT 0 NOT NULL,
	"total_amount" bigint DEFAULT 0 NOT NULL,
	"state" integer NOT NULL,
	"created_by" integer NOT NULL,
	"created_by_account" text NOT NULL,
	"proposed_by" integer,
	"proposed_by_account" text,
	"proposed_at" timestamp with time zone,
	"approved_by" integer,
	"approved_by_account" text,
	"approved_at" timestamp with time zone,
	"file_name" text,
	"file_content_type" text,
	"file_hash" text,
	"file_body" "bytea",
	"exported_at" timestamp with time zone,
	"completed_count" integer DEFAULT 0 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"result_uploads" integer DEFAULT 0 NOT NULL,
	"last_result" jsonb,
	"abnormal_reason" text,
	"abnormal_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payout_batches_state_ck" CHECK ("payout_batches"."state" between 0 and 5),
	CONSTRAINT "payout_batches_selection_ck" CHECK ("payout_batches"."max_count" between 1 and 500 and coalesce("payout_batches"."min_amount", 1) > 0
          and coalesce("payout_batches"."min_amount", 0) <= coalesce("payout_batches"."max_amount", "payout_batches"."min_amount", 0)),
	CONSTRAINT "payout_batches_checker_ck" CHECK ("payout_batches"."approved_by" is null or ("payout_batches"."proposed_by" is not null and "payout_batches"."approved_by" <> "payout_batches"."proposed_by"))
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "batch_id" integer;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_supplier_id_suppliers_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."suppliers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_batches_state_idx" ON "payout_batches" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "payout_batches_supplier_user_idx" ON "payout_batches" USING btree ("supplier_user_id","id");--> statement-breakpoint
CREATE INDEX "payout_batches_resource_idx" ON "payout_batches" USING btree ("resource_id");--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payouts_batch_idx" ON "payouts" USING btree ("batch_id","id") WHERE "payouts"."batch_id" is not null;