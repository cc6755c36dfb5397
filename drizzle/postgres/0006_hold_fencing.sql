ALTER TABLE "charge_holds" ADD COLUMN "attempt" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "charge_holds" ADD COLUMN "body_check" text;