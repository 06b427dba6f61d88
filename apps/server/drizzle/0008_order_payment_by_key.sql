-- An order's payment transfer is found by its idempotency key ('<orderCode>:pay'), no longer by a column: setting the column after the transfer kept the merchant's and the platform's balances locked one statement longer in every payment.
ALTER TABLE "orders" DROP CONSTRAINT "orders_pay_transfer_id_ledger_transfers_id_fk";
--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "pay_transfer_id";
