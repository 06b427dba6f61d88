CREATE TABLE "sign_in_throttles" (
	"account" text NOT NULL,
	"ip" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	CONSTRAINT "sign_in_throttles_account_ip_pk" PRIMARY KEY("account","ip")
);
--> statement-breakpoint
CREATE INDEX "sign_in_throttles_last_failure_idx" ON "sign_in_throttles" USING btree ("last_failure_at");