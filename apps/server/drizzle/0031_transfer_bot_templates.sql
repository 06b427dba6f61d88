ALTER TABLE "message_templates" ADD COLUMN "channel" text DEFAULT 'bot' NOT NULL;--> statement-breakpoint
ALTER TABLE "message_templates" DROP CONSTRAINT "message_templates_key_language_pk";--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_channel_key_language_pk" PRIMARY KEY("channel","key","language");--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "local_texts" jsonb;--> statement-breakpoint
ALTER TABLE "telegram_groups" ADD COLUMN "transfer_notices" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_channel_ck" CHECK ("message_templates"."channel" in ('bot', 'inApp'));
