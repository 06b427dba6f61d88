-- The open orders' index of an account takes the amount too: the allocation checks each account for an open order of the same amount with one probe instead of reading every open order of the account.
DROP INDEX "orders_resource_open_idx";--> statement-breakpoint
CREATE INDEX "orders_resource_open_idx" ON "orders" USING btree ("resource_id","amount") WHERE "orders"."state" = 1;
