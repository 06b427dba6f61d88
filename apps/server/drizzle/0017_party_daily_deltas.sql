CREATE TABLE "party_daily_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"day" text NOT NULL,
	"count" integer NOT NULL,
	"amount" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "party_daily_deltas_key_idx" ON "party_daily_deltas" USING btree ("user_id","product_id","day");