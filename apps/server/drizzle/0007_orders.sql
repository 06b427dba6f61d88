CREATE TABLE "order_allocations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"chosen_resource_id" integer,
	"candidates" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_callback_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"callback_id" bigint NOT NULL,
	"order_code" text NOT NULL,
	"attempt_no" integer NOT NULL,
	"url" text NOT NULL,
	"http_method" text DEFAULT 'POST' NOT NULL,
	"request_body" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"error" text,
	"succeeded" boolean NOT NULL,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_callbacks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"order_code" text NOT NULL,
	"merchant_order_no" text NOT NULL,
	"notification_id" text NOT NULL,
	"url" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"trigger" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "order_callbacks_state_ck" CHECK ("order_callbacks"."state" in ('pending', 'succeeded', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"from_state" integer,
	"to_state" integer,
	"actor_user_id" integer,
	"actor_account" text,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_code" text NOT NULL,
	"merchant_id" integer NOT NULL,
	"merchant_user_id" integer NOT NULL,
	"merchant_order_no" text NOT NULL,
	"request_hash" text NOT NULL,
	"product_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"api_amount" bigint NOT NULL,
	"fee" bigint NOT NULL,
	"commission" bigint,
	"state" integer NOT NULL,
	"mark" integer DEFAULT 0 NOT NULL,
	"locked" boolean DEFAULT false NOT NULL,
	"supplemented" boolean DEFAULT false NOT NULL,
	"supplement_type" integer,
	"utr" text,
	"payer_utr" text,
	"supplier_id" integer,
	"supplier_user_id" integer,
	"is_proxy" boolean DEFAULT false NOT NULL,
	"resource_id" integer,
	"allocation_no" integer DEFAULT 0 NOT NULL,
	"hold_open" boolean DEFAULT false NOT NULL,
	"paid_from_hold" boolean,
	"pay_transfer_id" bigint,
	"usdt_count" bigint,
	"usdt_address" text,
	"user_name" text,
	"card_number" text,
	"ifsc_code" text,
	"bank_name" text,
	"vpa" text,
	"mode" text,
	"address" text,
	"client_ip" text,
	"subject" text,
	"body" text,
	"extra" text,
	"notify_url" text,
	"return_url" text,
	"reject_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"allocated_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "orders_state_ck" CHECK ("orders"."state" between 0 and 8),
	CONSTRAINT "orders_mark_ck" CHECK ("orders"."mark" between 0 and 4),
	CONSTRAINT "orders_amount_ck" CHECK ("orders"."amount" > 0 and "orders"."fee" >= 0 and "orders"."fee" < "orders"."amount")
);
--> statement-breakpoint
CREATE TABLE "party_daily" (
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"day" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "party_daily_user_id_product_id_day_pk" PRIMARY KEY("user_id","product_id","day")
);
--> statement-breakpoint
ALTER TABLE "order_allocations" ADD CONSTRAINT "order_allocations_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_callback_attempts" ADD CONSTRAINT "order_callback_attempts_callback_id_order_callbacks_id_fk" FOREIGN KEY ("callback_id") REFERENCES "public"."order_callbacks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_callbacks" ADD CONSTRAINT "order_callbacks_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_supplier_id_suppliers_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."suppliers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_pay_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("pay_transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_allocations_order_idx" ON "order_allocations" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_callback_attempts_callback_idx" ON "order_callback_attempts" USING btree ("callback_id","id");--> statement-breakpoint
CREATE INDEX "order_callback_attempts_order_idx" ON "order_callback_attempts" USING btree ("order_code");--> statement-breakpoint
CREATE INDEX "order_callbacks_notification_idx" ON "order_callbacks" USING btree ("notification_id");--> statement-breakpoint
CREATE INDEX "order_callbacks_order_idx" ON "order_callbacks" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_callbacks_due_idx" ON "order_callbacks" USING btree ("next_attempt_at") WHERE "order_callbacks"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("order_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_order_code_uq" ON "orders" USING btree ("order_code");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_merchant_order_no_uq" ON "orders" USING btree ("merchant_id","merchant_order_no");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_utr_uq" ON "orders" USING btree ("utr") WHERE "orders"."utr" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_open_amount_uq" ON "orders" USING btree ("resource_id","amount") WHERE "orders"."state" = 1 and "orders"."usdt_count" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_open_usdt_uq" ON "orders" USING btree ("resource_id","usdt_count") WHERE "orders"."state" = 1 and "orders"."usdt_count" is not null;--> statement-breakpoint
CREATE INDEX "orders_merchant_user_idx" ON "orders" USING btree ("merchant_user_id","id");--> statement-breakpoint
CREATE INDEX "orders_supplier_user_idx" ON "orders" USING btree ("supplier_user_id","id");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "orders_state_idx" ON "orders" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "orders_expiry_idx" ON "orders" USING btree ("expires_at") WHERE "orders"."state" = 1;--> statement-breakpoint
CREATE INDEX "orders_resource_open_idx" ON "orders" USING btree ("resource_id") WHERE "orders"."state" = 1;