CREATE TABLE "resource_daily" (
	"resource_id" integer NOT NULL,
	"day" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "resource_daily_resource_id_day_pk" PRIMARY KEY("resource_id","day")
);
--> statement-breakpoint
CREATE TABLE "resource_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"resource_id" integer,
	"mime" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resources" (
	"id" serial PRIMARY KEY NOT NULL,
	"supplier_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"state" integer DEFAULT 1 NOT NULL,
	"details" jsonb NOT NULL,
	"secret_sealed" text,
	"min_amount" bigint,
	"max_amount" bigint,
	"daily_amount_limit" bigint,
	"daily_count_limit" integer,
	"link" text,
	"jump_link" text,
	"qr_code" text,
	"qr_image_id" integer,
	"last_allocated_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "resources_state_ck" CHECK ("resources"."state" in (0, 1)),
	CONSTRAINT "resources_limits_ck" CHECK (coalesce("resources"."min_amount", 1) > 0 and coalesce("resources"."min_amount", 0) <= coalesce("resources"."max_amount", "resources"."min_amount", 0)
          and coalesce("resources"."daily_amount_limit", 0) >= 0 and coalesce("resources"."daily_count_limit", 0) >= 0)
);
--> statement-breakpoint
ALTER TABLE "resource_daily" ADD CONSTRAINT "resource_daily_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_images" ADD CONSTRAINT "resource_images_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resources" ADD CONSTRAINT "resources_supplier_id_suppliers_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."suppliers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resources" ADD CONSTRAINT "resources_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resources" ADD CONSTRAINT "resources_qr_image_id_resource_images_id_fk" FOREIGN KEY ("qr_image_id") REFERENCES "public"."resource_images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "resource_images_resource_idx" ON "resource_images" USING btree ("resource_id");--> statement-breakpoint
CREATE INDEX "resources_supplier_idx" ON "resources" USING btree ("supplier_id");--> statement-breakpoint
CREATE INDEX "resources_product_state_idx" ON "resources" USING btree ("product_id","state");