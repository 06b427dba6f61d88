ALTER TABLE "order_callbacks" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "order_callbacks" ADD COLUMN "payout_id" bigint;--> statement-breakpoint
ALTER TABLE "order_callbacks" ADD CONSTRAINT "order_callbacks_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_callbacks_payout_idx" ON "order_callbacks" USING btree ("payout_id") WHERE "order_callbacks"."payout_id" is not null;--> statement-breakpoint
ALTER TABLE "order_callbacks" ADD CONSTRAINT "order_callbacks_subject_ck" CHECK (("order_callbacks"."order_id" is null) <> ("order_callbacks"."payout_id" is null));