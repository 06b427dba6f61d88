ALTER TABLE "payouts" ADD COLUMN "gateway_id" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "gateway_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "gateway_due_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payouts_gateway_due_idx" ON "payouts" USING btree ("gateway_due_at") WHERE "payouts"."gateway_due_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_gateway_id_uq" ON "payouts" USING btree ("resource_id","gateway_id") WHERE "payouts"."gateway_id" is not null;