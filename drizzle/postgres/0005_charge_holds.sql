CREATE TABLE "charge_holds" (
	"id" text PRIMARY KEY NOT NULL,
	"key_id" integer NOT NULL,
	"period" text NOT NULL,
	"charged" integer NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"owner" text NOT NULL,
	"lease_until" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "charge_holds" ADD CONSTRAINT "charge_holds_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;