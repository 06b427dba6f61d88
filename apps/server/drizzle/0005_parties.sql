CREATE TABLE "balance_proposals" (
	"id" serial PRIMARY KEY NOT NULL,
	"party_kind" text NOT NULL,
	"party_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount" bigint,
	"note" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"proposed_by" integer NOT NULL,
	"proposed_at" timestamp with time zone NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"transfer_id" bigint,
	CONSTRAINT "balance_proposals_party_kind_ck" CHECK ("balance_proposals"."party_kind" in ('merchant', 'supplier')),
	CONSTRAINT "balance_proposals_kind_ck" CHECK ("balance_proposals"."kind" in ('adjust', 'clear', 'deposit', 'withdraw')),
	CONSTRAINT "balance_proposals_state_ck" CHECK ("balance_proposals"."state" in ('pending', 'approved', 'rejected', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "merchants" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"merchant_no" text NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sign_type" text DEFAULT 'HMAC-SHA256' NOT NULL,
	"secret_sealed" text NOT NULL,
	"secret_rotated_at" timestamp with time zone NOT NULL,
	"ip_whitelist" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"notify_url" text,
	"callback_enabled" boolean DEFAULT true NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "merchants_sign_type_ck" CHECK ("merchants"."sign_type" in ('HMAC-SHA256', 'MD5'))
);
--> statement-breakpoint
CREATE TABLE "party_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"fee_rate" integer DEFAULT 0 NOT NULL,
	"per_transaction_fee" bigint DEFAULT 0 NOT NULL,
	"commission_rate" integer DEFAULT 0 NOT NULL,
	"daily_limit" bigint,
	"min_amount" bigint,
	"max_amount" bigint,
	"kyc_lower_limit" bigint,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" integer,
	CONSTRAINT "party_products_rates_ck" CHECK ("party_products"."fee_rate" between 0 and 10000 and "party_products"."commission_rate" between 0 and 10000),
	CONSTRAINT "party_products_amounts_ck" CHECK ("party_products"."per_transaction_fee" >= 0 and coalesce("party_products"."daily_limit", 0) >= 0 and coalesce("party_products"."kyc_lower_limit", 0) >= 0
          and coalesce("party_products"."min_amount", 1) > 0 and coalesce("party_products"."min_amount", 0) <= coalesce("party_products"."max_amount", "party_products"."min_amount", 0))
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"min_amount" bigint NOT NULL,
	"max_amount" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "products_limits_ck" CHECK ("products"."min_amount" > 0 and "products"."min_amount" <= "products"."max_amount")
);
--> statement-breakpoint
CREATE TABLE "saved_views" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"page" text NOT NULL,
	"name" text NOT NULL,
	"filters" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "suppliers" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "balance_proposals" ADD CONSTRAINT "balance_proposals_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_proposals" ADD CONSTRAINT "balance_proposals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_proposals" ADD CONSTRAINT "balance_proposals_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_products" ADD CONSTRAINT "party_products_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_products" ADD CONSTRAINT "party_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppliers" ADD CONSTRAINT "suppliers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppliers" ADD CONSTRAINT "suppliers_parent_id_suppliers_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."suppliers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balance_proposals_state_idx" ON "balance_proposals" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "balance_proposals_party_idx" ON "balance_proposals" USING btree ("party_kind","party_id");--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_user_uq" ON "merchants" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_merchant_no_uq" ON "merchants" USING btree ("merchant_no");--> statement-breakpoint
CREATE UNIQUE INDEX "party_products_user_product_uq" ON "party_products" USING btree ("user_id","product_id");--> statement-breakpoint
CREATE INDEX "party_products_product_idx" ON "party_products" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_views_user_page_name_uq" ON "saved_views" USING btree ("user_id","page","name");--> statement-breakpoint
CREATE UNIQUE INDEX "suppliers_user_uq" ON "suppliers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "suppliers_parent_idx" ON "suppliers" USING btree ("parent_id");--> statement-breakpoint
-- The product catalogue of DESIGN section 6 (ids and defaults as in the contract's PRODUCTS).
INSERT INTO "products" ("id", "enabled", "min_amount", "max_amount") VALUES
  (1001, true, 10000, 5000000), (1002, true, 10000, 5000000), (1045, true, 10000, 5000000),
  (2001, true, 10000, 5000000), (2002, true, 10000, 5000000), (2003, true, 10000, 5000000),
  (3015, true, 10000, 5000000), (3016, true, 10000, 5000000), (4001, true, 10000, 5000000),
  (5001, true, 10000, 5000000), (5002, true, 10000, 5000000)
ON CONFLICT ("id") DO NOTHING;
