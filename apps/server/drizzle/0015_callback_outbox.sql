DROP INDEX "order_callbacks_due_idx";--> statement-breakpoint
ALTER TABLE "order_callbacks" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_callbacks" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_callbacks" ADD COLUMN "claimed_by" text;--> statement-breakpoint
CREATE INDEX "order_callbacks_due_idx" ON "order_callbacks" USING btree ("due_at") WHERE "order_callbacks"."state" = 'pending' and "order_callbacks"."deleted_at" is null;--> statement-breakpoint
-- Pending callbacks of an earlier release were queued as pg-boss jobs: they join the outbox, due at once
-- (the jobs of the old queue 'order-callback' are no longer worked; the app deletes that queue at start).
UPDATE "order_callbacks" SET "due_at" = now() WHERE "state" = 'pending';
