CREATE TABLE "payout_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payout_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"from_state" integer,
	"to_state" integer,
	"actor_user_id" integer,
	"actor_account" text,
	"note" text DEFAULT '' NOT NULL,
	"note_template" jsonb,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_code" text NOT NULL,
	"merchant_id" integer NOT NULL,
	"merchant_user_id" integer NOT NULL,
	"merchant_order_no" text NOT NULL,
	"request_hash" text NOT NULL,
	"product_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"fee" bigint NOT NULL,
	"commission" bigint,
	"state" integer NOT NULL,
	"supplier_id" integer,
	"supplier_user_id" integer,
	"resource_id" integer,
	"claim_no" integer DEFAULT 0 NOT NULL,
	"user_name" text,
	"card_number" text,
	"ifsc_code" text,
	"bank_name" text,
	"bank_branch" text,
	"address" text,
	"remark" text,
	"client_ip" text,
	"notify_url" text,
	"utr" text,
	"reject_reason" text,
	"exception_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payouts_state_ck" CHECK ("payouts"."state" between 0 and 9),
	CONSTRAINT "payouts_amount_ck" CHECK ("payouts"."amount" > 0 and "payouts"."fee" >= 0 and coalesce("payouts"."commission", 0) >= 0),
	CONSTRAINT "payouts_claim_ck" CHECK (("payouts"."supplier_id" is null) = ("payouts"."resource_id" is null)
          and ("payouts"."state" <> 0 or "payouts"."supplier_id" is null)
          and ("payouts"."state" not in (2, 5, 7, 8, 9) or "payouts"."supplier_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_supplier_id_suppliers_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."suppliers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_events_payout_idx" ON "payout_events" USING btree ("payout_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_order_code_uq" ON "payouts" USING btree ("order_code");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_merchant_order_no_uq" ON "payouts" USING btree ("merchant_id","merchant_order_no");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_utr_uq" ON "payouts" USING btree ("utr") WHERE "payouts"."utr" is not null;--> statement-breakpoint
CREATE INDEX "payouts_merchant_user_idx" ON "payouts" USING btree ("merchant_user_id","id");--> statement-breakpoint
CREATE INDEX "payouts_supplier_user_idx" ON "payouts" USING btree ("supplier_user_id","id");--> statement-breakpoint
CREATE INDEX "payouts_queue_idx" ON "payouts" USING btree ("product_id","id") WHERE "payouts"."state" = 0;--> statement-breakpoint
CREATE INDEX "payouts_state_idx" ON "payouts" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "payouts_created_idx" ON "payouts" USING btree ("created_at");