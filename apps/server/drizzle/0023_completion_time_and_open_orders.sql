CREATE INDEX "orders_paid_idx" ON "orders" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "orders_merchant_open_idx" ON "orders" USING btree ("merchant_user_id","product_id") WHERE "orders"."state" in (0, 1);--> statement-breakpoint
CREATE INDEX "payouts_completed_idx" ON "payouts" USING btree ("completed_at");