CREATE TABLE "calibrations" (
	"id" text PRIMARY KEY NOT NULL,
	"key_id" integer NOT NULL,
	"name" text NOT NULL,
	"model_version" text NOT NULL,
	"created_at" bigint NOT NULL,
	"summary" text NOT NULL,
	"profile" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calibrations" ADD CONSTRAINT "calibrations_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calibrations_key_created" ON "calibrations" USING btree ("key_id","created_at");