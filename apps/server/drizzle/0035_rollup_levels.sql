CREATE TABLE "order_rollup_levels" (
	"level" smallint NOT NULL,
	"at" timestamp NOT NULL,
	"direction" smallint NOT NULL,
	"party_user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"mark" smallint NOT NULL,
	"created_count" integer NOT NULL,
	"created_amount" bigint NOT NULL,
	"success_count" integer NOT NULL,
	"success_amount" bigint NOT NULL,
	"fee" bigint NOT NULL,
	"commission" bigint NOT NULL,
	"failed_count" integer NOT NULL,
	"timed_out_count" integer NOT NULL,
	"reversed_count" integer NOT NULL,
	"reversed_amount" bigint NOT NULL,
	"cancelled_count" integer NOT NULL,
	CONSTRAINT "order_rollup_levels_level_at_direction_party_user_id_product_id_mark_pk" PRIMARY KEY("level","at","direction","party_user_id","product_id","mark"),
	CONSTRAINT "order_rollup_levels_level_ck" CHECK ("order_rollup_levels"."level" between 1 and 4)
);
--> statement-breakpoint
CREATE INDEX "order_rollup_levels_party_idx" ON "order_rollup_levels" USING btree ("level","party_user_id","at");--> statement-breakpoint
-- The levels of the rollups folded so far (the unfolded deltas reach both when the folder moves them):
-- 1 per merchant and hour, 2 per supplier and hour, 3 per merchant and day, 4 per supplier and day.
INSERT INTO "order_rollup_levels"
SELECT 1, hour, direction, merchant_user_id, product_id, mark, sum(created_count), sum(created_amount), sum(success_count),
       sum(success_amount), sum(fee), sum(commission), sum(failed_count), sum(timed_out_count), sum(reversed_count),
       sum(reversed_amount), sum(cancelled_count)
  FROM "order_rollups" GROUP BY 2, 3, 4, 5, 6
UNION ALL
SELECT 2, hour, direction, supplier_user_id, product_id, mark, sum(created_count), sum(created_amount), sum(success_count),
       sum(success_amount), sum(fee), sum(commission), sum(failed_count), sum(timed_out_count), sum(reversed_count),
       sum(reversed_amount), sum(cancelled_count)
  FROM "order_rollups" GROUP BY 2, 3, 4, 5, 6
UNION ALL
SELECT 3, date_trunc('day', hour), direction, merchant_user_id, product_id, mark, sum(created_count), sum(created_amount),
       sum(success_count), sum(success_amount), sum(fee), sum(commission), sum(failed_count), sum(timed_out_count),
       sum(reversed_count), sum(reversed_amount), sum(cancelled_count)
  FROM "order_rollups" GROUP BY 2, 3, 4, 5, 6
UNION ALL
SELECT 4, date_trunc('day', hour), direction, supplier_user_id, product_id, mark, sum(created_count), sum(created_amount),
       sum(success_count), sum(success_amount), sum(fee), sum(commission), sum(failed_count), sum(timed_out_count),
       sum(reversed_count), sum(reversed_amount), sum(cancelled_count)
  FROM "order_rollups" GROUP BY 2, 3, 4, 5, 6;
