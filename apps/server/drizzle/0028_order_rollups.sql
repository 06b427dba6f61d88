CREATE TABLE "order_rollup_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"hour" timestamp NOT NULL,
	"direction" smallint NOT NULL,
	"merchant_user_id" integer NOT NULL,
	"supplier_user_id" integer NOT NULL,
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
	"cancelled_count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_rollups" (
	"hour" timestamp NOT NULL,
	"direction" smallint NOT NULL,
	"merchant_user_id" integer NOT NULL,
	"supplier_user_id" integer NOT NULL,
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
	CONSTRAINT "order_rollups_hour_direction_merchant_user_id_supplier_user_id_product_id_mark_pk" PRIMARY KEY("hour","direction","merchant_user_id","supplier_user_id","product_id","mark")
);
--> statement-breakpoint
CREATE TABLE "stats_clock" (
	"id" integer PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	CONSTRAINT "stats_clock_one_ck" CHECK ("stats_clock"."id" = 1)
);
--> statement-breakpoint
CREATE INDEX "order_rollups_supplier_idx" ON "order_rollups" USING btree ("supplier_user_id","hour");--> statement-breakpoint
-- The platform time zone of the rollups' hours; the server writes its TIME_ZONE here at start.
INSERT INTO "stats_clock" ("id", "time_zone") VALUES (1, 'Asia/Kolkata');
--> statement-breakpoint
-- An order's figures in its rollup bucket (issue 22): what it adds as it is now (sign 1) or takes back
-- as it was (sign -1). The triggers below and the rebuild (statistics/rollups.ts) read the figures only
-- here, so the rollups and a recomputation from the orders cannot disagree by definition.
-- Collection states (contract orders/states.ts): paid 3, 4, 6, 9; failed 5 (allocation), 7 (rejected);
-- timed out 2; reversed 8.
CREATE OR REPLACE FUNCTION order_rollup_figures(o orders, sign integer)
RETURNS TABLE (
  hour timestamp, direction smallint, merchant_user_id integer, supplier_user_id integer, product_id integer,
  mark smallint, created_count integer, created_amount bigint, success_count integer, success_amount bigint,
  fee bigint, commission bigint, failed_count integer, timed_out_count integer, reversed_count integer,
  reversed_amount bigint, cancelled_count integer
) AS $$
  SELECT date_trunc('hour', o.created_at AT TIME ZONE coalesce((SELECT time_zone FROM stats_clock WHERE id = 1), 'UTC')),
         1::smallint, o.merchant_user_id, coalesce(o.supplier_user_id, 0), o.product_id, o.mark::smallint,
         sign, sign * o.amount,
         sign * (o.state IN (3, 4, 6, 9))::integer,
         CASE WHEN o.state IN (3, 4, 6, 9) THEN sign * o.amount ELSE 0 END,
         CASE WHEN o.state IN (3, 4, 6, 9) THEN sign * o.fee ELSE 0 END,
         CASE WHEN o.state IN (3, 4, 6, 9) THEN sign * coalesce(o.commission, 0) ELSE 0 END,
         sign * (o.state IN (5, 7))::integer,
         sign * (o.state = 2)::integer,
         sign * (o.state = 8)::integer,
         CASE WHEN o.state = 8 THEN sign * o.amount ELSE 0 END,
         0
$$ LANGUAGE sql STABLE;
--> statement-breakpoint
-- A payout's figures (direction 2, mark 0). Payout states (contract payouts/states.ts): completed 3,
-- cancelled 4, rejected 6.
CREATE OR REPLACE FUNCTION payout_rollup_figures(p payouts, sign integer)
RETURNS TABLE (
  hour timestamp, direction smallint, merchant_user_id integer, supplier_user_id integer, product_id integer,
  mark smallint, created_count integer, created_amount bigint, success_count integer, success_amount bigint,
  fee bigint, commission bigint, failed_count integer, timed_out_count integer, reversed_count integer,
  reversed_amount bigint, cancelled_count integer
) AS $$
  SELECT date_trunc('hour', p.created_at AT TIME ZONE coalesce((SELECT time_zone FROM stats_clock WHERE id = 1), 'UTC')),
         2::smallint, p.merchant_user_id, coalesce(p.supplier_user_id, 0), p.product_id, 0::smallint,
         sign, sign * p.amount,
         sign * (p.state = 3)::integer,
         CASE WHEN p.state = 3 THEN sign * p.amount ELSE 0 END,
         CASE WHEN p.state = 3 THEN sign * p.fee ELSE 0 END,
         CASE WHEN p.state = 3 THEN sign * coalesce(p.commission, 0) ELSE 0 END,
         sign * (p.state = 6)::integer,
         0, 0, 0::bigint,
         sign * (p.state = 4)::integer
$$ LANGUAGE sql STABLE;
--> statement-breakpoint
-- Write one change's deltas: the new row's figures less the old row's, one row per bucket touched (an
-- allocation or a claim moves the row from supplier 0 to its supplier: two), none when nothing a bucket
-- counts changed (a callback's outcome: paid and notified count alike).
CREATE OR REPLACE FUNCTION orders_rollup_deltas() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO order_rollup_deltas (hour, direction, merchant_user_id, supplier_user_id, product_id, mark,
         created_count, created_amount, success_count, success_amount, fee, commission, failed_count,
         timed_out_count, reversed_count, reversed_amount, cancelled_count)
    SELECT * FROM order_rollup_figures(NEW, 1);
  ELSE
    INSERT INTO order_rollup_deltas (hour, direction, merchant_user_id, supplier_user_id, product_id, mark,
         created_count, created_amount, success_count, success_amount, fee, commission, failed_count,
         timed_out_count, reversed_count, reversed_amount, cancelled_count)
    SELECT f.hour, f.direction, f.merchant_user_id, f.supplier_user_id, f.product_id, f.mark,
           sum(f.created_count), sum(f.created_amount), sum(f.success_count), sum(f.success_amount), sum(f.fee),
           sum(f.commission), sum(f.failed_count), sum(f.timed_out_count), sum(f.reversed_count),
           sum(f.reversed_amount), sum(f.cancelled_count)
      FROM (SELECT * FROM order_rollup_figures(NEW, 1) UNION ALL SELECT * FROM order_rollup_figures(OLD, -1)) f
     GROUP BY f.hour, f.direction, f.merchant_user_id, f.supplier_user_id, f.product_id, f.mark
    HAVING sum(f.created_count) <> 0 OR sum(f.success_count) <> 0 OR sum(f.success_amount) <> 0 OR sum(f.fee) <> 0
        OR sum(f.commission) <> 0 OR sum(f.failed_count) <> 0 OR sum(f.timed_out_count) <> 0
        OR sum(f.reversed_count) <> 0 OR sum(f.cancelled_count) <> 0;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION payouts_rollup_deltas() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO order_rollup_deltas (hour, direction, merchant_user_id, supplier_user_id, product_id, mark,
         created_count, created_amount, success_count, success_amount, fee, commission, failed_count,
         timed_out_count, reversed_count, reversed_amount, cancelled_count)
    SELECT * FROM payout_rollup_figures(NEW, 1);
  ELSE
    INSERT INTO order_rollup_deltas (hour, direction, merchant_user_id, supplier_user_id, product_id, mark,
         created_count, created_amount, success_count, success_amount, fee, commission, failed_count,
         timed_out_count, reversed_count, reversed_amount, cancelled_count)
    SELECT f.hour, f.direction, f.merchant_user_id, f.supplier_user_id, f.product_id, f.mark,
           sum(f.created_count), sum(f.created_amount), sum(f.success_count), sum(f.success_amount), sum(f.fee),
           sum(f.commission), sum(f.failed_count), sum(f.timed_out_count), sum(f.reversed_count),
           sum(f.reversed_amount), sum(f.cancelled_count)
      FROM (SELECT * FROM payout_rollup_figures(NEW, 1) UNION ALL SELECT * FROM payout_rollup_figures(OLD, -1)) f
     GROUP BY f.hour, f.direction, f.merchant_user_id, f.supplier_user_id, f.product_id, f.mark
    HAVING sum(f.created_count) <> 0 OR sum(f.success_count) <> 0 OR sum(f.success_amount) <> 0 OR sum(f.fee) <> 0
        OR sum(f.commission) <> 0 OR sum(f.failed_count) <> 0 OR sum(f.timed_out_count) <> 0
        OR sum(f.reversed_count) <> 0 OR sum(f.cancelled_count) <> 0;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER orders_rollup_insert AFTER INSERT ON orders FOR EACH ROW EXECUTE FUNCTION orders_rollup_deltas();
--> statement-breakpoint
CREATE TRIGGER orders_rollup_update AFTER UPDATE ON orders FOR EACH ROW
  WHEN ((OLD.state, OLD.mark, OLD.supplier_user_id, OLD.fee, OLD.commission, OLD.amount, OLD.product_id, OLD.merchant_user_id, OLD.created_at)
        IS DISTINCT FROM (NEW.state, NEW.mark, NEW.supplier_user_id, NEW.fee, NEW.commission, NEW.amount, NEW.product_id, NEW.merchant_user_id, NEW.created_at))
  EXECUTE FUNCTION orders_rollup_deltas();
--> statement-breakpoint
CREATE TRIGGER payouts_rollup_insert AFTER INSERT ON payouts FOR EACH ROW EXECUTE FUNCTION payouts_rollup_deltas();
--> statement-breakpoint
CREATE TRIGGER payouts_rollup_update AFTER UPDATE ON payouts FOR EACH ROW
  WHEN ((OLD.state, OLD.supplier_user_id, OLD.fee, OLD.commission, OLD.amount, OLD.product_id, OLD.merchant_user_id, OLD.created_at)
        IS DISTINCT FROM (NEW.state, NEW.supplier_user_id, NEW.fee, NEW.commission, NEW.amount, NEW.product_id, NEW.merchant_user_id, NEW.created_at))
  EXECUTE FUNCTION payouts_rollup_deltas();
--> statement-breakpoint
-- The orders and payouts made before this migration.
INSERT INTO order_rollups
SELECT f.hour, f.direction, f.merchant_user_id, f.supplier_user_id, f.product_id, f.mark,
       sum(f.created_count), sum(f.created_amount), sum(f.success_count), sum(f.success_amount), sum(f.fee),
       sum(f.commission), sum(f.failed_count), sum(f.timed_out_count), sum(f.reversed_count), sum(f.reversed_amount),
       sum(f.cancelled_count)
  FROM (SELECT r.* FROM orders o CROSS JOIN LATERAL order_rollup_figures(o, 1) r
        UNION ALL SELECT r.* FROM payouts p CROSS JOIN LATERAL payout_rollup_figures(p, 1) r) f
 GROUP BY f.hour, f.direction, f.merchant_user_id, f.supplier_user_id, f.product_id, f.mark;
