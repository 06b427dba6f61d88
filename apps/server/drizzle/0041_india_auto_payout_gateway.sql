-- India auto payout (2002) becomes a gateway product (DESIGN section 7): its payouts are paid by the
-- server through gateway payout accounts (kind gatewayPayout), never claimed by hand.
--
-- Its accounts until now were bank accounts (kind indiaAutoPayout) with the very fields of a bank
-- payout account: they stay their supplier's bank accounts, as bank payout (2001) accounts, offered for
-- 2001 payouts and bank-file batches when the supplier has 2001 enabled. Their state is kept.
--
-- A 2002 payout a supplier claimed by hand and still holds in progress can no longer be submitted (the
-- rule gatewayPayout): it becomes a processing exception for staff, who ask the supplier whether it paid
-- and settle it. Its funds stay held; those already submitted or further along are left to staff's
-- confirm or reject as before. A payout's triggers keep the rollups right.
WITH moved AS (
  UPDATE "payouts" p
  SET "state" = 9,
      "exception_reason" = 'India auto payout (2002) is now paid through a gateway: this payout was claimed by hand before; ask the supplier whether it paid it',
      "updated_at" = now()
  FROM "resources" r
  WHERE r."id" = p."resource_id" AND r."kind" = 'indiaAutoPayout' AND p."product_id" = 2002 AND p."state" = 2
  RETURNING p."id"
)
INSERT INTO "payout_events" ("payout_id", "kind", "from_state", "to_state", "note", "created_at")
SELECT "id", 'markedAbnormal', 2, 9,
  'India auto payout (2002) is now paid through a gateway: this payout was claimed by hand before; ask the supplier whether it paid it',
  now()
FROM moved;--> statement-breakpoint
UPDATE "resources" SET "product_id" = 2001, "kind" = 'bankPayout', "updated_at" = now() WHERE "kind" = 'indiaAutoPayout';
