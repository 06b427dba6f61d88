ALTER TABLE "ledger_transfers" ADD COLUMN "note_template" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "title_template" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "content_template" jsonb;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "note_template" jsonb;