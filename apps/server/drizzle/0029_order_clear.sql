CREATE TABLE "order_clear_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"started_by" integer,
	"state" text NOT NULL,
	"cycle_days" integer NOT NULL,
	"cutoff" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"error" text,
	"orders" integer DEFAULT 0 NOT NULL,
	"payouts" integer DEFAULT 0 NOT NULL,
	"order_events" integer DEFAULT 0 NOT NULL,
	"payout_events" integer DEFAULT 0 NOT NULL,
	"allocations" integer DEFAULT 0 NOT NULL,
	"callbacks" integer DEFAULT 0 NOT NULL,
	"callback_attempts" integer DEFAULT 0 NOT NULL,
	"receipts" integer DEFAULT 0 NOT NULL,
	"pay_script_calls" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "order_clear_runs_trigger_ck" CHECK ("order_clear_runs"."trigger" in ('schedule', 'manual')),
	CONSTRAINT "order_clear_runs_state_ck" CHECK ("order_clear_runs"."state" in ('running', 'succeeded', 'failed', 'interrupted')),
	CONSTRAINT "order_clear_runs_cycle_ck" CHECK ("order_clear_runs"."cycle_days" > 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "details_cleared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "details_cleared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_clear_runs" ADD CONSTRAINT "order_clear_runs_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_clear_runs_started_idx" ON "order_clear_runs" USING btree ("started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "order_clear_runs_running_uq" ON "order_clear_runs" USING btree ("state") WHERE "order_clear_runs"."state" = 'running';--> statement-breakpoint
CREATE INDEX "orders_details_kept_idx" ON "orders" USING btree ("id") WHERE "orders"."details_cleared_at" is null;--> statement-breakpoint
CREATE INDEX "payouts_details_kept_idx" ON "payouts" USING btree ("id") WHERE "payouts"."details_cleared_at" is null;