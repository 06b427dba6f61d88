ALTER TABLE "pay_script_calls" DROP CONSTRAINT "pay_script_calls_source_ck";--> statement-breakpoint
ALTER TABLE "pay_gateways" ADD COLUMN "pay_script_id" integer;--> statement-breakpoint
ALTER TABLE "pay_gateways" ADD CONSTRAINT "pay_gateways_pay_script_id_pay_scripts_id_fk" FOREIGN KEY ("pay_script_id") REFERENCES "public"."pay_scripts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_script_calls" ADD CONSTRAINT "pay_script_calls_source_ck" CHECK ("pay_script_calls"."source" in ('test', 'payerPage', 'notify'));