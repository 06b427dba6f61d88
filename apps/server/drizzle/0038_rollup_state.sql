-- The rollups gain the state as a key (issue 22 item 5): a list filtered by state, over any range,
-- totals from the rollups instead of summing its rows. An order's change of state now moves it from
-- one bucket to another (a delta of -1 in the old state and +1 in the new). The rollups are derived
-- data: emptied here and recomputed from the orders and payouts at the end, in this transaction.
-- TRUNCATE, not DELETE: the tables are rewritten whole, and a delete would leave every old row
-- dead in them until a vacuum.
TRUNCATE order_rollup_deltas, order_rollups, order_rollup_levels;
--> statement-breakpoint
ALTER TABLE "order_rollup_levels" DROP CONSTRAINT "order_rollup_levels_level_at_direction_party_user_id_product_id_mark_pk";--> statement-breakpoint
ALTER TABLE "order_rollups" DROP CONSTRAINT "order_rollups_hour_direction_merchant_user_id_supplier_user_id_product_id_mark_pk";--> statement-breakpoint
ALTER TABLE "order_rollup_deltas" ADD COLUMN "state" smallint NOT NULL;--> statement-breakpoint
ALTER TABLE "order_rollup_levels" ADD COLUMN "state" smallint NOT NULL;--> statement-breakpoint
ALTER TABLE "order_rollups" ADD COLUMN "state" smallint NOT NULL;--> statement-breakpoint
ALTER TABLE "order_rollup_levels" ADD CONSTRAINT "order_rollup_levels_level_at_direction_party_user_id_product_id_mark_state_pk" PRIMARY KEY("level","at","direction","party_user_id","product_id","mark","state");--> statement-breakpoint
ALTER TABLE "order_rollups" ADD CONSTRAINT "order_rollups_hour_direction_merchant_user_id_supplier_user_id_product_id_mark_state_pk" PRIMARY KEY("hour","direction","merchant_user_id","supplier_user_id","product_id","mark","state");--> statement-breakpoint
DROP FUNCTION order_rollup_figures(orders, integer);
--> statement-breakpoint
DROP FUNCTION payout_rollup_figures(payouts, integer);
--> statement-breakpoint
CREATE FUNCTION order_rollup_figures(o orders, sign integer)
RETURNS TABLE (
  hour timestamp, direction smallint, merchant_user_id integer, supplier_user_id integer, product_id integer,
  mark smallint, state smallint, created_count integer, created_amount bigint, success_count integer, success_amount bigint,
  fee bigint, commission bigint, failed_count integer, timed_out_count integer, reversed_count integer,
  reversed_amount bigint, cancelled_count integer, all_fee bigint, all_commission bigint
) AS $$
  SELECT date_trunc('hour', o.created_at AT TIME ZONE coalesce((SELECT time_zone FROM stats_clock WHERE id = 1), 'UTC')),
         1::smallint, o.merchant_user_id, coalesce(o.supplier_user_id, 0), o.product_id, o.mark::smallint, o.state::smallint,
         sign, sign * o.amount,
         sign * (o.state IN (3, 4, 6, 9))::integer,
         CASE WHEN o.state IN (3, 4, 6, 9) THEN sign * o.amount ELSE 0 END,
         CASE WHEN o.state IN (3, 4, 6, 9) THEN sign * o.fee ELSE 0 END,
         CASE WHEN o.state IN (3, 4, 6, 9) THEN sign * coalesce(o.commission, 0) ELSE 0 END,
         sign * (o.state IN (5, 7))::integer,
         sign * (o.state = 2)::integer,
         sign * (o.state = 8)::integer,
         CASE WHEN o.state = 8 THEN sign * o.amount ELSE 0 END,
         0,
         sign * o.fee,
         sign * coalesce(o.commission, 0)
$$ LANGUAGE sql STABLE;
--> statement-breakpoint
CREATE FUNCTION payout_rollup_figures(p payouts, sign integer)
RETURNS TABLE (
  hour timestamp, direction smallint, merchant_user_id integer, supplier_user_id integer, product_id integer,
  mark smallint, state smallint, created_count integer, created_amount bigint, success_count integer, success_amount bigint,
  fee bigint, commission bigint, failed_count integer, timed_out_count integer, reversed_count integer,
  reversed_amount bigint, cancelled_count integer, all_fee bigint, all_commission bigint
) AS $$
  SELECT date_trunc('hour', p.created_at AT TIME ZONE coalesce((SELECT time_zone FROM stats_clock WHERE id = 1), 'UTC')),
         2::smallint, p.merchant_user_id, coalesce(p.supplier_user_id, 0), p.product_id, 0::smallint, p.state::smallint,
         sign, sign * p.amount,
         sign * (p.state = 3)::integer,
         CASE WHEN p.state = 3 THEN sign * p.amount ELSE 0 END,
         CASE WHEN p.state = 3 THEN sign * p.fee ELSE 0 END,
         CASE WHEN p.state = 3 THEN sign * coalesce(p.commission, 0) ELSE 0 END,
         sign * (p.state = 6)::integer,
         0, 0, 0::bigint,
         sign * (p.state = 4)::integer,
         sign * p.fee,
         sign * coalesce(p.commission, 0)
$$ LANGUAGE sql STABLE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_rollup_deltas() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO order_rollup_deltas (hour, direction, merchant_user_id, supplier_user_id, product_id, mark, state,
         created_count, created_amount, success_count, success_amount, fee, commission, failed_count,
         timed_out_count, reversed_count, reversed_amount, cancelled_count, all_fee, all_commission)
    SELECT * FROM order_rollup_figures(NEW, 1);
  ELSE
    INSERT INTO order_rollup_deltas (hour, direction, merchant_user_id, supplier_user_id, product_id, mark, state,
         created_count, created_amount, success_count, success_amount, fee, commission, failed_count,
         timed_out_count, reversed_count, reversed_amount, cancelled_count, all_fee, all_commission)
    SELECT f.hour, f.direction, f.merchant_user_id, f.supplier_user_id, f.product_id, f.mark, f.state,
           sum(f.created_count), sum(f.created_amount), sum(f.success_count), sum(f.success_amount), sum(f.fee),
           sum(f.commission), sum(f.failed_count), sum(f.timed_out_count), sum(f.reversed_count),
           sum(f.reversed_amount), sum(f.cancelled_count), sum(f.all_fee), sum(f.all_commission)
      FROM (SELECT * FROM order_rollup_figures(NEW, 1) UNION ALL SELECT * FROM order_rollup_figures(OLD, -1)) f
     GROUP BY f.hour, f.direction, f.merchant_user_id, f.supplier_user_id, f.product_id, f.mark, f.state
    HAVING sum(f.created_count) <> 0 OR sum(f.success_count) <> 0 OR sum(f.success_amount) <> 0 OR sum(f.fee) <> 0
        OR sum(f.commission) <> 0 OR sum(f.failed_count) <> 0 OR sum(f.timed_out_count) <> 0
        OR sum(f.reversed_count) <> 0 OR sum(f.cancelled_count) <> 0 OR sum(f.created_amount) <> 0
        OR sum(f.all_fee) <> 0 OR sum(f.all_commission) <> 0;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION payouts_rollup_deltas() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO order_rollup_deltas (hour, direction, merchant_user_id, supplier_user_id, product_id, mark, state,
         created_count, created_amount, success_count, success_amount, fee, commission, failed_count,
         timed_out_count, reversed_count, reversed_amount, cancelled_count, all_fee, all_commission)
    SELECT * FROM payout_rollup_figures(NEW, 1);
  ELSE
    INSERT INTO order_rollup_deltas (hour, direction, merchant_user_id, supplier_user_id, product_id, mark, state,
         created_count, created_amount, success_count, success_amount, fee, commission, failed_count,
         timed_out_count, reversed_count, reversed_amount, cancelled_count, all_fee, all_commission)
    SELECT f.hour, f.direction, f.merchant_user_id, f.supplier_user_id, f.product_id, f.mark, f.state,
           sum(f.created_count), sum(f.created_amount), sum(f.success_count), sum(f.success_amount), sum(f.fee),
           sum(f.commission), sum(f.failed_count), sum(f.timed_out_count), sum(f.reversed_count),
           sum(f.reversed_amount), sum(f.cancelled_count), sum(f.all_fee), sum(f.all_commission)
      FROM (SELECT * FROM payout_rollup_figures(NEW, 1) UNION ALL SELECT * FROM payout_rollup_figures(OLD, -1)) f
     GROUP BY f.hour, f.direction, f.merchant_user_id, f.supplier_user_id, f.product_id, f.mark, f.state
    HAVING sum(f.created_count) <> 0 OR sum(f.success_count) <> 0 OR sum(f.success_amount) <> 0 OR sum(f.fee) <> 0
        OR sum(f.commission) <> 0 OR sum(f.failed_count) <> 0 OR sum(f.timed_out_count) <> 0
        OR sum(f.reversed_count) <> 0 OR sum(f.cancelled_count) <> 0 OR sum(f.created_amount) <> 0
        OR sum(f.all_fee) <> 0 OR sum(f.all_commission) <> 0;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Recomputed from the orders and payouts (columns named: "state" is the tables' last column).
INSERT INTO order_rollups (hour, direction, merchant_user_id, supplier_user_id, product_id, mark, state, created_count, created_amount, success_count, success_amount, fee, commission, failed_count, timed_out_count, reversed_count, reversed_amount, cancelled_count, all_fee, all_commission)
SELECT f.hour, f.direction, f.merchant_user_id, f.supplier_user_id, f.product_id, f.mark, f.state,
       sum(f.created_count), sum(f.created_amount), sum(f.success_count), sum(f.success_amount), sum(f.fee),
       sum(f.commission), sum(f.failed_count), sum(f.timed_out_count), sum(f.reversed_count), sum(f.reversed_amount),
       sum(f.cancelled_count), sum(f.all_fee), sum(f.all_commission)
  FROM (SELECT r.* FROM orders o CROSS JOIN LATERAL order_rollup_figures(o, 1) r
        UNION ALL SELECT r.* FROM payouts p CROSS JOIN LATERAL payout_rollup_figures(p, 1) r) f
 GROUP BY f.hour, f.direction, f.merchant_user_id, f.supplier_user_id, f.product_id, f.mark, f.state;
--> statement-breakpoint
INSERT INTO order_rollup_levels (level, at, direction, party_user_id, product_id, mark, state, created_count, created_amount, success_count, success_amount, fee, commission, failed_count, timed_out_count, reversed_count, reversed_amount, cancelled_count, all_fee, all_commission)
SELECT l.level, l.at, l.direction, l.party_user_id, l.product_id, l.mark, l.state, sum(created_count),
       sum(created_amount), sum(success_count), sum(success_amount), sum(fee), sum(commission), sum(failed_count),
       sum(timed_out_count), sum(reversed_count), sum(reversed_amount), sum(cancelled_count), sum(all_fee),
       sum(all_commission)
  FROM order_rollups r
 CROSS JOIN LATERAL (VALUES (1::smallint, r.hour, r.direction, r.merchant_user_id, r.product_id, r.mark, r.state),
                            (2::smallint, r.hour, r.direction, r.supplier_user_id, r.product_id, r.mark, r.state),
                            (3::smallint, date_trunc('day', r.hour), r.direction, r.merchant_user_id, r.product_id, r.mark, r.state),
                            (4::smallint, date_trunc('day', r.hour), r.direction, r.supplier_user_id, r.product_id, r.mark, r.state))
       AS l(level, at, direction, party_user_id, product_id, mark, state)
 GROUP BY 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
ANALYZE order_rollups, order_rollup_levels;
