ALTER TABLE "audit_log" ALTER COLUMN "prev_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "seq" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_seq_uq" ON "audit_log" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "audit_unsealed_idx" ON "audit_log" USING btree ("id") WHERE "audit_log"."seq" is null;--> statement-breakpoint
-- Rows are written unsealed and sealed once by the audit sealer (platform/audit-sealer.ts): the one
-- change the table allows is giving an unsealed row its place, link and hash, its content unchanged.
CREATE OR REPLACE FUNCTION audit_log_refuse_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND OLD.seq IS NULL AND OLD.prev_hash IS NULL AND OLD.hash IS NULL
     AND NEW.seq IS NOT NULL AND NEW.prev_hash IS NOT NULL AND NEW.hash IS NOT NULL
     AND (NEW.id, NEW.at, NEW.user_id, NEW.account, NEW.role, NEW.action, NEW.target, NEW.before, NEW.after, NEW.ip)
         IS NOT DISTINCT FROM
         (OLD.id, OLD.at, OLD.user_id, OLD.account, OLD.role, OLD.action, OLD.target, OLD.before, OLD.after, OLD.ip) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Rows written before sealing were chained in id order as they were written: that is their place.
ALTER TABLE "audit_log" DISABLE TRIGGER audit_log_append_only;
--> statement-breakpoint
UPDATE "audit_log" a SET "seq" = n.seq
  FROM (SELECT "id", row_number() OVER (ORDER BY "id") AS seq FROM "audit_log") n
 WHERE a."id" = n."id";
--> statement-breakpoint
ALTER TABLE "audit_log" ENABLE TRIGGER audit_log_append_only;
