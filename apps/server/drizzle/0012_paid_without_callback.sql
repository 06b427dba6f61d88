ALTER TABLE "orders" DROP CONSTRAINT "orders_state_ck";--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_state_ck" CHECK ("orders"."state" between 0 and 9);--> statement-breakpoint
-- Orders paid for a merchant without callbacks stayed 'paid, notifying' (6) with nothing in flight:
-- they are paid (9), with the timeline row a payment without a callback now writes.
WITH moved AS (
  UPDATE "orders" o SET "state" = 9, "updated_at" = now()
   WHERE o."state" = 6
     AND NOT EXISTS (SELECT 1 FROM "order_callbacks" c WHERE c."order_id" = o."id" AND c."state" = 'pending')
  RETURNING o."id"
)
INSERT INTO "order_events" ("order_id", "kind", "from_state", "to_state", "note", "note_template", "created_at")
SELECT "id", 'callbackSkipped', 6, 9, 'callbacks are off or no notify URL', '{"key":"callbacksOff","values":{}}'::jsonb, now()
  FROM moved;
