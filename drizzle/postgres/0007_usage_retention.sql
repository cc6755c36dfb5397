CREATE TABLE "usage_totals" (
	"key_id" integer NOT NULL,
	"period" text NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"words" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_totals_key_id_period_pk" PRIMARY KEY("key_id","period")
);
--> statement-breakpoint
ALTER TABLE "idempotency_records" ADD COLUMN "key_id" integer;--> statement-breakpoint
ALTER TABLE "usage_totals" ADD CONSTRAINT "usage_totals_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_records_key_expires" ON "idempotency_records" USING btree ("key_id","expires_at");