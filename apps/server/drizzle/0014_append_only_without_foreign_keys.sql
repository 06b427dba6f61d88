ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_transfer_id_ledger_transfers_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_account_id_ledger_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "order_allocations" DROP CONSTRAINT "order_allocations_order_id_orders_id_fk";
--> statement-breakpoint
ALTER TABLE "order_callback_attempts" DROP CONSTRAINT "order_callback_attempts_callback_id_order_callbacks_id_fk";
--> statement-breakpoint
ALTER TABLE "order_events" DROP CONSTRAINT "order_events_order_id_orders_id_fk";
