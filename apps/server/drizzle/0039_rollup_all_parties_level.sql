ALTER TABLE "order_rollup_levels" DROP CONSTRAINT "order_rollup_levels_level_ck";--> statement-breakpoint
ALTER TABLE "order_rollup_levels" ADD CONSTRAINT "order_rollup_levels_level_ck" CHECK ("order_rollup_levels"."level" between 1 and 5);--> statement-breakpoint
-- Level 5: the merchants' day level summed over the merchants (every party together, party 0), so a
-- list's totals without a party filter read a row per day, product, mark and state (issue 22 item 5).
-- The unfolded deltas stay where they are: the folder adds them to every level, this one included.
INSERT INTO order_rollup_levels (level, at, direction, party_user_id, product_id, mark, state, created_count,
       created_amount, success_count, success_amount, fee, commission, failed_count, timed_out_count,
       reversed_count, reversed_amount, cancelled_count, all_fee, all_commission)
SELECT 5, at, direction, 0, product_id, mark, state, sum(created_count), sum(created_amount), sum(success_count),
       sum(success_amount), sum(fee), sum(commission), sum(failed_count), sum(timed_out_count), sum(reversed_count),
       sum(reversed_amount), sum(cancelled_count), sum(all_fee), sum(all_commission)
  FROM order_rollup_levels
 WHERE level = 3
 GROUP BY at, direction, product_id, mark, state;
