CREATE TABLE "payout_receipts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payout_id" bigint NOT NULL,
	"mime" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"uploaded_by_user_id" integer,
	"uploaded_by_account" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "receipt_id" bigint;--> statement-breakpoint
ALTER TABLE "payout_receipts" ADD CONSTRAINT "payout_receipts_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_receipts_payout_idx" ON "payout_receipts" USING btree ("payout_id");--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_receipt_id_payout_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."payout_receipts"("id") ON DELETE no action ON UPDATE no action;